/**
 * Where to send a creator after sign-in. Only paths on our own origin are allowed: anything
 * that could leave the site (`https://evil.example`, `//evil.example`, `/\evil.example`,
 * `javascript:`) is refused, and the result is always a plain path, never a full URL.
 */

export const DEFAULT_AFTER_SIGN_IN_PATH = "/dashboard";

/** Request header through which the proxy tells server components the requested path. */
export const CALLBACK_PATH_HEADER = "x-truss-path";

const MAX_CALLBACK_LENGTH = 2048;

/**
 * A safe same-origin path for `value`, or null. Relative paths are always judged; absolute
 * URLs only when `appOrigin` is given, and only if they are on that origin.
 */
export function toSafeCallbackPath(value: string | null | undefined, appOrigin?: string): string | null {
  if (!value || value.length > MAX_CALLBACK_LENGTH) return null;
  // Control characters and backslashes are how browsers are tricked into reading a host.
  if (value.includes("\\") || [...value].some((character) => isControlCharacter(character))) return null;
  const isPath = value.startsWith("/") && !value.startsWith("//");
  if (!isPath && appOrigin === undefined) return null;
  const base = appOrigin ?? "http://placeholder.invalid";
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== new URL(base).origin) return null;
  if (!isPath && !/^https?:\/\//i.test(value)) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // `http://our.host//evil.example` has the path `//evil.example`, a protocol-relative URL.
  if (!path.startsWith("/") || path.startsWith("//")) return null;
  return path;
}

/** The login page URL that brings the visitor back to `requestedPath` afterwards. */
export function loginPathFor(requestedPath: string | null | undefined): string {
  const path = toSafeCallbackPath(requestedPath) ?? DEFAULT_AFTER_SIGN_IN_PATH;
  return `/login?${new URLSearchParams({ callbackUrl: path })}`;
}

function isControlCharacter(character: string): boolean {
  const code = character.charCodeAt(0);
  return code <= 0x1f || code === 0x7f;
}
