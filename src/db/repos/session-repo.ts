import { z } from "zod";
import { creatorPk, SESSION_REF_SK_PREFIX, sessionKey, sessionRefKey } from "@/db/keys";
import {
  deleteKeys,
  getItem,
  isConditionFailure,
  itemOf,
  queryAllItems,
  type Table,
  transactWrite,
} from "@/db/table";

/**
 * Database sessions. The cookie holds a random token; the table holds only its SHA-256
 * (`SESSION#<hash>` / `SESSION`), so a leaked table dump signs nobody in. A second item in
 * the creator's partition (`CREATOR#<id>` / `SESSION#<hash>`) lists a creator's sessions for
 * "sign out everywhere". Both carry `expiresAt` (seconds, the table's TTL attribute); TTL
 * deletion is late, so reads check it themselves.
 */

const SessionItem = z.object({
  type: z.literal("Session"),
  creatorId: z.string(),
  expiresAt: z.number().int(),
  createdAt: z.string(),
});

const SessionRefItem = z.object({
  type: z.literal("SessionRef"),
  SK: z.string(),
  expiresAt: z.number().int(),
  createdAt: z.string(),
});

export type StoredSession = { tokenHash: string; creatorId: string; expiresAt: number; createdAt: string };

export const toEpochSeconds = (date: Date | number) =>
  Math.floor((typeof date === "number" ? date : date.getTime()) / 1000);

// Store a new session and its reference in the creator's partition (one transaction).
export async function createSession(options: {
  table: Table;
  tokenHash: string;
  creatorId: string;
  expires: Date;
  now?: Date;
}): Promise<StoredSession> {
  const { table, tokenHash, creatorId } = options;
  const createdAt = (options.now ?? new Date()).toISOString();
  const expiresAt = toEpochSeconds(options.expires);
  await transactWrite({
    table,
    conflictMessage: "This session already exists.",
    items: [
      {
        Put: {
          TableName: table.tableName,
          Item: itemOf(sessionKey(tokenHash), "Session", { creatorId, expiresAt, createdAt }),
          ConditionExpression: "attribute_not_exists(PK)",
        },
      },
      {
        Put: {
          TableName: table.tableName,
          Item: itemOf(sessionRefKey(creatorId, tokenHash), "SessionRef", { expiresAt, createdAt }),
          ConditionExpression: "attribute_not_exists(PK)",
        },
      },
    ],
  });
  return { tokenHash, creatorId, expiresAt, createdAt };
}

// A session by token hash (one GetItem), whether or not it is past its expiry. Strongly
// consistent: every caller authenticates with it, and an eventually consistent read can still
// find a session for about a second after sign-out ended it.
export async function findSession(options: {
  table: Table;
  tokenHash: string;
}): Promise<StoredSession | undefined> {
  const item = await getItem({
    table: options.table,
    key: sessionKey(options.tokenHash),
    schema: SessionItem,
    consistent: true,
  });
  if (!item) return undefined;
  return {
    tokenHash: options.tokenHash,
    creatorId: item.creatorId,
    expiresAt: item.expiresAt,
    createdAt: item.createdAt,
  };
}

// A live session by token hash (one GetItem); expired sessions read as absent.
export async function findActiveSession(options: {
  table: Table;
  tokenHash: string;
  nowMs?: number;
}): Promise<StoredSession | undefined> {
  const session = await findSession(options);
  if (!session || session.expiresAt * 1000 <= (options.nowMs ?? Date.now())) return undefined;
  return session;
}

// Move a session's expiry (both items, one transaction); false if the session is gone.
export function updateSessionExpiry(options: {
  table: Table;
  tokenHash: string;
  creatorId: string;
  expires: Date;
}): Promise<boolean> {
  return writeSessionExpiry({ ...options, expiresAt: toEpochSeconds(options.expires) });
}

/**
 * Slide a live session's expiry to `expiresAt` (both items, one transaction), but only if
 * the stored expiry is still `seenExpiresAt` and in the future: of several requests that read
 * the same due session, one write wins, and a session deleted (signed out) or expired since
 * the read is never brought back. False when the condition failed.
 */
export function extendSessionExpiry(options: {
  table: Table;
  session: Pick<StoredSession, "tokenHash" | "creatorId" | "expiresAt">;
  expiresAt: number;
  nowMs?: number;
}): Promise<boolean> {
  const { session } = options;
  return writeSessionExpiry({
    table: options.table,
    tokenHash: session.tokenHash,
    creatorId: session.creatorId,
    expiresAt: options.expiresAt,
    unchangedSince: { expiresAt: session.expiresAt, nowSeconds: toEpochSeconds(options.nowMs ?? Date.now()) },
  });
}

/**
 * Sets `expiresAt` on both items of a session that still exists, and, with `unchangedSince`,
 * only while the stored expiry is the one read and still in the future.
 */
async function writeSessionExpiry(options: {
  table: Table;
  tokenHash: string;
  creatorId: string;
  expiresAt: number;
  unchangedSince?: { expiresAt: number; nowSeconds: number };
}): Promise<boolean> {
  const { table, tokenHash, creatorId, expiresAt, unchangedSince } = options;
  const update = (key: { PK: string; SK: string }, guarded: boolean) => ({
    Update: {
      TableName: table.tableName,
      Key: key,
      UpdateExpression: "SET expiresAt = :expiresAt",
      ...(guarded && unchangedSince
        ? {
            ConditionExpression: "expiresAt = :seenExpiresAt AND expiresAt > :now",
            ExpressionAttributeValues: {
              ":expiresAt": expiresAt,
              ":seenExpiresAt": unchangedSince.expiresAt,
              ":now": unchangedSince.nowSeconds,
            },
          }
        : {
            ConditionExpression: "attribute_exists(PK)",
            ExpressionAttributeValues: { ":expiresAt": expiresAt },
          }),
    },
  });
  try {
    await transactWrite({
      table,
      conflictMessage: "This session has ended.",
      items: [update(sessionKey(tokenHash), true), update(sessionRefKey(creatorId, tokenHash), false)],
    });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// End one session (both items). Deleting a session that is already gone is not an error.
export async function deleteSession(options: { table: Table; tokenHash: string; creatorId: string }) {
  const { table, tokenHash, creatorId } = options;
  await transactWrite({
    table,
    conflictMessage: "This session has ended.",
    items: [
      { Delete: { TableName: table.tableName, Key: sessionKey(tokenHash) } },
      { Delete: { TableName: table.tableName, Key: sessionRefKey(creatorId, tokenHash) } },
    ],
  });
}

// Token hashes of all of a creator's sessions, including ones past expiry not yet removed by TTL.
// Strongly consistent, so "sign out everywhere" also ends a session created a moment before.
export async function listSessionHashesByCreator(options: {
  table: Table;
  creatorId: string;
}): Promise<string[]> {
  const items = await queryAllItems({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "prefix", prefix: SESSION_REF_SK_PREFIX },
    schema: SessionRefItem,
    consistent: true,
  });
  return items.map((item) => item.SK.slice(SESSION_REF_SK_PREFIX.length));
}

// End every session of a creator ("sign out everywhere"); returns how many were ended.
export async function deleteAllSessionsOfCreator(options: {
  table: Table;
  creatorId: string;
}): Promise<number> {
  const { table, creatorId } = options;
  const hashes = await listSessionHashesByCreator({ table, creatorId });
  const keys = hashes.flatMap((tokenHash) => [sessionKey(tokenHash), sessionRefKey(creatorId, tokenHash)]);
  await deleteKeys(table, keys);
  return hashes.length;
}
