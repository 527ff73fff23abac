/**
 * Auth.js names the session cookie after the scheme: `__Secure-` over https, bare over http.
 * Both are accepted everywhere a session is read, so a deployment behind TLS termination and
 * a plain local run behave the same.
 */
export const SESSION_COOKIE_NAMES = ["__Secure-authjs.session-token", "authjs.session-token"] as const;

/** Session tokens we issue are 43 base64url characters; anything far outside that is forged. */
const SESSION_TOKEN_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

export type SessionCookieName = (typeof SESSION_COOKIE_NAMES)[number];

/** The session token from a `Cookie` header, or null. Never trusts the value beyond its shape. */
export function readSessionToken(cookieHeader: string | null | undefined): string | null {
  return readSessionCookie(cookieHeader)?.value ?? null;
}

/** Like readSessionToken, with the name it came under (to set the cookie again, same name). */
export function readSessionCookie(
  cookieHeader: string | null | undefined,
): { name: SessionCookieName; value: string } | null {
  if (!cookieHeader) return null;
  const values = new Map<string, string>();
  for (const pair of cookieHeader.split(";")) {
    const separator = pair.indexOf("=");
    if (separator === -1) continue;
    const name = pair.slice(0, separator).trim();
    if (!values.has(name)) values.set(name, pair.slice(separator + 1).trim());
  }
  for (const name of SESSION_COOKIE_NAMES) {
    const value = values.get(name);
    if (value && SESSION_TOKEN_PATTERN.test(value)) return { name, value };
  }
  return null;
}

/** The attributes Auth.js sets the session cookie with, so a refreshed cookie replaces it. */
export function sessionCookieOptions(name: SessionCookieName, expires: Date) {
  return {
    expires,
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    secure: name.startsWith("__Secure-"),
  } as const;
}

/** True when the header carries a session cookie under either name (the proxy's fast check). */
export function hasSessionCookie(cookieHeader: string | null | undefined): boolean {
  if (!cookieHeader) return false;
  return SESSION_COOKIE_NAMES.some((name) =>
    cookieHeader.split(";").some((pair) => pair.trim().startsWith(`${name}=`)),
  );
}
