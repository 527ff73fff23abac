import { z } from "zod";
import { DEFAULT_AFTER_SIGN_IN_PATH, toSafeCallbackPath } from "./callback-url";
import { EmailAddress } from "./normalize-email";

/**
 * The emailed sign-in link and the two URLs it involves. Mail security scanners (Defender Safe
 * Links, Mimecast…) fetch every link in an email before the recipient does, so the link must
 * not spend its one-time token on GET:
 *
 * - the email links to our confirm page (`/login/confirm?token&email&callbackUrl`), which only
 *   shows "Sign in as <email>" and a button;
 * - the button posts to Auth.js's callback, the one URL that spends the token, and only by
 *   POST (a GET of it is sent to the confirm page). Scanners do not submit forms.
 *
 * Both read the same three parameters through `readSignInLink`, and the form's target is built
 * from its result, never taken from the query.
 */

export const AUTH_BASE_PATH = "/api/auth";
export const EMAIL_PROVIDER_ID = "email";

/** Auth.js's magic-link callback: it spends the token (see handle-auth-post.ts). */
export const SIGN_IN_CALLBACK_PATH = `${AUTH_BASE_PATH}/callback/${EMAIL_PROVIDER_ID}`;

/** The page the emailed link opens; opening it spends nothing. */
export const CONFIRM_SIGN_IN_PATH = "/login/confirm";

/** Where Auth.js sends a sign-in it refused (`pages.error` in auth-config.ts). */
export const SIGN_IN_ERROR_PATH = "/login/error";

/** The query parameters a sign-in link carries, in the order Auth.js writes them. */
export const SIGN_IN_LINK_PARAMS = ["callbackUrl", "token", "email"] as const;

/** The parts of a sign-in link, checked for form only: Auth.js checks the token itself. */
export type SignInLink = { token: string; email: string; callbackPath: string };

/**
 * Why a link cannot be used: a parameter is missing, one is not what we send (a token or an
 * email of the wrong shape), or its after-sign-in target is not a page of this site.
 */
export type SignInLinkProblem = "incomplete" | "malformed" | "off_site_target";

export type SignInLinkReading = { ok: true; link: SignInLink } | { ok: false; problem: SignInLinkProblem };

// We generate 32 random bytes as base64url (43 characters); a little slack, nothing else.
const SignInToken = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);

/**
 * Reads a sign-in link's query (the confirm page's or the callback's). A missing `callbackUrl`
 * means the dashboard; one that is not a path on `appOrigin` is refused, not replaced, so a
 * tampered link is reported rather than quietly followed somewhere else.
 */
export function readSignInLink(query: URLSearchParams, appOrigin: string): SignInLinkReading {
  const token = query.get("token");
  const email = query.get("email");
  if (!token || !email) return { ok: false, problem: "incomplete" };
  const parsedToken = SignInToken.safeParse(token);
  const parsedEmail = EmailAddress.safeParse(email);
  if (!parsedToken.success || !parsedEmail.success) return { ok: false, problem: "malformed" };
  const callbackUrl = query.get("callbackUrl");
  const callbackPath = callbackUrl ? toSafeCallbackPath(callbackUrl, appOrigin) : DEFAULT_AFTER_SIGN_IN_PATH;
  if (!callbackPath) return { ok: false, problem: "off_site_target" };
  return { ok: true, link: { token: parsedToken.data, email: parsedEmail.data, callbackPath } };
}

/** The query both URLs carry, in the order Auth.js writes it. */
function queryOf(link: SignInLink): string {
  return new URLSearchParams({
    callbackUrl: link.callbackPath,
    token: link.token,
    email: link.email,
  }).toString();
}

/** The confirm form's target: this site's Auth.js callback, as a path, never another URL. */
export function signInCallbackPathFor(link: SignInLink): string {
  return `${SIGN_IN_CALLBACK_PATH}?${queryOf(link)}`;
}

/** The confirm page for the same link, as a path (a GET of the callback is sent here). */
export function confirmSignInPathFor(query: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of SIGN_IN_LINK_PARAMS) {
    const value = query.get(name);
    if (value !== null) kept.set(name, value);
  }
  const search = kept.toString();
  return search ? `${CONFIRM_SIGN_IN_PATH}?${search}` : CONFIRM_SIGN_IN_PATH;
}

/**
 * The link the email carries, from the callback URL Auth.js hands `sendVerificationRequest`:
 * the same origin and parameters, on the confirm page instead of the callback.
 */
export function toEmailedSignInUrl(verificationUrl: string): string {
  const url = new URL(verificationUrl);
  if (url.pathname !== SIGN_IN_CALLBACK_PATH) {
    throw new Error(`Expected an Auth.js ${SIGN_IN_CALLBACK_PATH} URL, got ${url.pathname}`);
  }
  return `${url.origin}${confirmSignInPathFor(url.searchParams)}`;
}

/**
 * Auth.js's redirect after the callback, with the link's email and target added when it goes
 * to the error page: Auth.js names only the error, and the page needs both to offer a new link
 * to the same address that leads to the same page. The token is not passed on. Any other
 * redirect (a successful sign-in) is returned unchanged.
 */
export function withSignInLinkOnErrorPage(location: string, link: SignInLink, appOrigin: string): string {
  const url = new URL(location, appOrigin);
  if (url.origin !== appOrigin || url.pathname !== SIGN_IN_ERROR_PATH) return location;
  url.searchParams.set("email", link.email);
  url.searchParams.set("callbackUrl", link.callbackPath);
  return url.toString();
}

/** What the error page may reuse of a refused link: see `readSignInRetry`. */
export type SignInRetry = { email: string | null; callbackPath: string };

/**
 * The email and target the error page offers a new link with. Its query is anyone's to write,
 * so the email is only a prefill (and dropped unless it is a well-formed address), and the
 * target must be a path on this site; anything else means the dashboard.
 */
export function readSignInRetry(query: { email?: string; callbackUrl?: string }): SignInRetry {
  const email = EmailAddress.safeParse(query.email ?? "");
  return {
    email: email.success ? email.data : null,
    callbackPath: toSafeCallbackPath(query.callbackUrl) ?? DEFAULT_AFTER_SIGN_IN_PATH,
  };
}
