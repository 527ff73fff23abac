import "server-only";
import { findApiTokenOwnerByHash } from "@/db/repos/api-token-repo";
import { findActiveSession } from "@/db/repos/session-repo";
import { type Runtime, tableOf } from "@/server/runtime";
import { looksLikeApiToken, readBearerToken } from "./api-token-format";
import { hashToken } from "./hash-token";
import { readSessionToken } from "./session-cookie";

export type Identity = { creatorId: string; via: "session" | "api-token" };

/**
 * Who is calling: an `Authorization: Bearer <api token>` header (checked alone when present,
 * so a bad token is never rescued by a cookie) or a session cookie under either name. Each
 * is one GetItem on a hashed key. Null when neither proves anything.
 */
export async function authenticateRequest(options: {
  runtime: Runtime;
  headers: Headers;
  nowMs?: number;
}): Promise<Identity | null> {
  const table = tableOf(options.runtime);
  const bearer = readBearerToken(options.headers.get("authorization"));
  if (bearer !== undefined) {
    if (bearer === null || !looksLikeApiToken(bearer)) return null;
    const owner = await findApiTokenOwnerByHash({ table, tokenHash: hashToken(bearer) });
    return owner ? { creatorId: owner.creatorId, via: "api-token" } : null;
  }
  const sessionToken = readSessionToken(options.headers.get("cookie"));
  if (!sessionToken) return null;
  const session = await findActiveSession({
    table,
    tokenHash: hashToken(sessionToken),
    nowMs: options.nowMs,
  });
  return session ? { creatorId: session.creatorId, via: "session" } : null;
}
