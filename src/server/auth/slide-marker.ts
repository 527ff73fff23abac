import { createHmac, timingSafeEqual } from "node:crypto";
import type { SessionCookieName } from "./session-cookie";

/**
 * The slide marker: a cookie the proxy sets beside the session cookie, meaning "this session
 * needs no slide before <until>". Until then the proxy skips its table read (slide-session.ts);
 * once the browser drops it, or the time in it has passed, the proxy reads and slides again.
 *
 * `until` is the moment the session becomes due, computed from the stored expiry the proxy
 * just read, so the marker never postpones a slide: it only skips reads that would have found
 * nothing to do. It never grants access: pages and routes check the session in the table
 * themselves, so a signed-out or revoked session is refused whatever marker comes with it.
 *
 * Value: `<until, epoch seconds>.<HMAC-SHA256(key, until + "." + session token)>`, so a marker
 * counts only for the session it was issued for and only until the time the server wrote in
 * it: a marker left over from another session, or edited, makes the proxy read as before.
 */

export type SlideMarkerCookieName = "__Secure-truss.session-slide" | "truss.session-slide";

const MARKER_PATTERN = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/**
 * Named after the session cookie it belongs to: `__Secure-` (https only) with the secure one.
 * It is set with that cookie's own attributes (`sessionCookieOptions`), expiring at `until`.
 */
export function slideMarkerCookieName(sessionCookieName: SessionCookieName): SlideMarkerCookieName {
  return sessionCookieName.startsWith("__Secure-") ? "__Secure-truss.session-slide" : "truss.session-slide";
}

/** The marker for `sessionToken`, good until `until` (rounded down to whole seconds). */
export function createSlideMarker(options: { key: string; sessionToken: string; until: Date }): string {
  const untilSeconds = Math.floor(options.until.getTime() / 1000);
  return `${untilSeconds}.${tagOf(options.key, untilSeconds, options.sessionToken)}`;
}

/** True when `marker` was issued for this session token and its time has not yet come. */
export function isSlideMarkerCurrent(options: {
  key: string;
  sessionToken: string;
  marker: string | undefined;
  nowMs: number;
}): boolean {
  const match = MARKER_PATTERN.exec(options.marker ?? "");
  if (!match) return false;
  const untilSeconds = Number(match[1]);
  if (untilSeconds * 1000 <= options.nowMs) return false;
  const expected = Buffer.from(tagOf(options.key, untilSeconds, options.sessionToken));
  return timingSafeEqual(Buffer.from(match[2] ?? ""), expected);
}

function tagOf(key: string, untilSeconds: number, sessionToken: string): string {
  return createHmac("sha256", key).update(`${untilSeconds}.${sessionToken}`).digest("base64url");
}
