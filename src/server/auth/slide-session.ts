import "server-only";
import type { Config } from "@/config";
import { extendSessionExpiry, findActiveSession, toEpochSeconds } from "@/db/repos/session-repo";
import type { Table } from "@/db/table";
import { hashToken } from "./hash-token";

/** How often a session in use has its expiry pushed forward (Auth.js's `updateAge`). */
export const SESSION_UPDATE_AGE_SECONDS = 24 * 60 * 60;

/** A session lives this long after it was last slid (Auth.js's `maxAge`). */
export function sessionMaxAgeSeconds(config: Config): number {
  return config.auth.sessionTtlDays * 24 * 60 * 60;
}

/** What a slide did: the new expiry when it wrote one, and when the session is next due. */
export type SlideResult = {
  /** The session's new expiry, to set on the cookie; null when nothing was written. */
  expires: Date | null;
  /**
   * When the session next needs a slide (its expiry was last set `updateAge` before), known
   * when the session is live and this call read or wrote its expiry; null otherwise. Until
   * then another call would read the session and find nothing to do (slide-marker.ts).
   */
  nextSlideAt: Date | null;
};

/**
 * Sliding sessions: a session used more than `updateAge` after its expiry was last set gets
 * a new expiry of now + `maxAge`, so an active creator stays signed in and an idle one is
 * signed out `maxAge` after their last visit.
 *
 * Auth.js would do this itself only in `auth()` and `/api/auth/session`, which the app does
 * not call (pages and routes read the table directly), so the proxy calls this for requests
 * that carry a session cookie, because only there can pages (Server Components) also get the
 * refreshed cookie. The proxy runs on the Node.js runtime in Next 16.
 *
 * Cost: one GetItem per call; a conditional write at most once per `updateAge` per session
 * (the expiry read is the condition, so concurrent requests write once). The proxy calls it
 * only when the session's slide marker is missing or has lapsed, so a browser costs about one
 * read per `updateAge`, not one per request. `expires` is null when the session is unknown,
 * expired, not yet due, or lost the race; `nextSlideAt` is null for the first two and a lost
 * race (whose winner set the new expiry the caller did not read).
 */
export async function slideSession(options: {
  table: Table;
  config: Config;
  sessionToken: string;
  nowMs?: number;
}): Promise<SlideResult> {
  const { table } = options;
  const nowMs = options.nowMs ?? Date.now();
  const session = await findActiveSession({ table, tokenHash: hashToken(options.sessionToken), nowMs });
  if (!session) return { expires: null, nextSlideAt: null };
  const maxAge = sessionMaxAgeSeconds(options.config);
  const lastSetAt = session.expiresAt - maxAge;
  if (toEpochSeconds(nowMs) - lastSetAt < SESSION_UPDATE_AGE_SECONDS) {
    return { expires: null, nextSlideAt: new Date((lastSetAt + SESSION_UPDATE_AGE_SECONDS) * 1000) };
  }
  const expiresAt = toEpochSeconds(nowMs) + maxAge;
  const extended = await extendSessionExpiry({ table, session, expiresAt, nowMs });
  if (!extended) return { expires: null, nextSlideAt: null };
  return {
    expires: new Date(expiresAt * 1000),
    nextSlideAt: new Date((expiresAt - maxAge + SESSION_UPDATE_AGE_SECONDS) * 1000),
  };
}
