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

/**
 * Sliding sessions: a session used more than `updateAge` after its expiry was last set gets
 * a new expiry of now + `maxAge`, so an active creator stays signed in and an idle one is
 * signed out `maxAge` after their last visit.
 *
 * Auth.js would do this itself only in `auth()` and `/api/auth/session`, which the app does
 * not call (pages and routes read the table directly), so the proxy calls this on every
 * request that carries a session cookie, because only there can pages (Server Components)
 * also get the refreshed cookie. The proxy runs on the Node.js runtime in Next 16.
 *
 * Cost: one GetItem per request; a conditional write at most once per `updateAge` per
 * session (the expiry read is the condition, so concurrent requests write once). Returns
 * the new expiry, or null when the session is unknown, expired, not yet due, or lost the race.
 */
export async function slideSession(options: {
  table: Table;
  config: Config;
  sessionToken: string;
  nowMs?: number;
}): Promise<Date | null> {
  const { table } = options;
  const nowMs = options.nowMs ?? Date.now();
  const session = await findActiveSession({ table, tokenHash: hashToken(options.sessionToken), nowMs });
  if (!session) return null;
  const maxAge = sessionMaxAgeSeconds(options.config);
  const lastSetAt = session.expiresAt - maxAge;
  if (toEpochSeconds(nowMs) - lastSetAt < SESSION_UPDATE_AGE_SECONDS) return null;
  const expiresAt = toEpochSeconds(nowMs) + maxAge;
  const extended = await extendSessionExpiry({ table, session, expiresAt, nowMs });
  return extended ? new Date(expiresAt * 1000) : null;
}
