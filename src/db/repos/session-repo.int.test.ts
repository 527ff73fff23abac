import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { sessionKey, sessionRefKey } from "@/db/keys";
import { getItem } from "@/db/table";
import { countTableRequests } from "@/db/testing/count-table-requests";
import { createId } from "@/lib/ids";
import { testTable } from "../../../dev/test/runtime";
import {
  createSession,
  deleteAllSessionsOfCreator,
  deleteSession,
  findActiveSession,
  findSession,
  listSessionHashesByCreator,
  toEpochSeconds,
  updateSessionExpiry,
} from "./session-repo";

const table = testTable();
const newHash = () => randomBytes(32).toString("hex");
const inHours = (hours: number) => new Date(Date.now() + hours * 3_600_000);

describe("session repository", () => {
  it("finds a live session and lists it under its creator", async () => {
    const creatorId = createId("creator");
    const tokenHash = newHash();
    await createSession({ table, tokenHash, creatorId, expires: inHours(1) });
    expect(await findActiveSession({ table, tokenHash })).toMatchObject({ creatorId, tokenHash });
    expect(await listSessionHashesByCreator({ table, creatorId })).toEqual([tokenHash]);
  });

  it("treats a session past expiresAt as absent even before TTL deletes it", async () => {
    const creatorId = createId("creator");
    const tokenHash = newHash();
    await createSession({ table, tokenHash, creatorId, expires: inHours(1) });
    expect(await findActiveSession({ table, tokenHash, nowMs: Date.now() + 2 * 3_600_000 })).toBeUndefined();
    expect(await findSession({ table, tokenHash })).toBeDefined();
  });

  it("extends both items, and refuses to revive a deleted session", async () => {
    const creatorId = createId("creator");
    const tokenHash = newHash();
    await createSession({ table, tokenHash, creatorId, expires: inHours(1) });
    const extended = inHours(48);
    expect(await updateSessionExpiry({ table, tokenHash, creatorId, expires: extended })).toBe(true);
    expect(await findActiveSession({ table, tokenHash, nowMs: Date.now() + 24 * 3_600_000 })).toBeDefined();
    for (const key of [sessionKey(tokenHash), sessionRefKey(creatorId, tokenHash)]) {
      const item = await getItem({
        table,
        key,
        schema: z.object({ expiresAt: z.number() }),
        consistent: true,
      });
      expect(item?.expiresAt).toBe(toEpochSeconds(extended));
    }

    await deleteSession({ table, tokenHash, creatorId });
    expect(await findSession({ table, tokenHash })).toBeUndefined();
    expect(await listSessionHashesByCreator({ table, creatorId })).toEqual([]);
    expect(await updateSessionExpiry({ table, tokenHash, creatorId, expires: inHours(48) })).toBe(false);
    expect(await findSession({ table, tokenHash })).toBeUndefined();
    // Deleting again is not an error (sign-out after sign-out-everywhere).
    await deleteSession({ table, tokenHash, creatorId });
  });

  it("reads strongly consistently where a request is signed in or all sessions are ended", async () => {
    // On DynamoDB an eventually consistent read can find a session for about a second after it
    // ended; DynamoDB Local is always consistent, so the requests themselves are looked at.
    const creatorId = createId("creator");
    const tokenHash = newHash();
    await createSession({ table, tokenHash, creatorId, expires: inHours(1) });
    const requests = countTableRequests(table);
    try {
      expect(await findSession({ table, tokenHash })).toBeDefined();
      expect(await findActiveSession({ table, tokenHash })).toBeDefined();
      expect(await listSessionHashesByCreator({ table, creatorId })).toEqual([tokenHash]);
      expect(requests.bodies("GetItem")).toEqual([
        expect.objectContaining({ ConsistentRead: true }),
        expect.objectContaining({ ConsistentRead: true }),
      ]);
      expect(requests.bodies("Query")).toEqual([expect.objectContaining({ ConsistentRead: true })]);
    } finally {
      requests.stop();
    }
  });

  it("ends every session of one creator and none of another's", async () => {
    const creatorId = createId("creator");
    const otherCreatorId = createId("creator");
    const hashes = Array.from({ length: 30 }, newHash);
    await Promise.all(
      hashes.map((tokenHash) => createSession({ table, tokenHash, creatorId, expires: inHours(1) })),
    );
    const otherHash = newHash();
    await createSession({ table, tokenHash: otherHash, creatorId: otherCreatorId, expires: inHours(1) });

    expect(await deleteAllSessionsOfCreator({ table, creatorId })).toBe(30);
    for (const tokenHash of hashes) expect(await findSession({ table, tokenHash })).toBeUndefined();
    expect(await listSessionHashesByCreator({ table, creatorId })).toEqual([]);
    expect(await findActiveSession({ table, tokenHash: otherHash })).toBeDefined();
  });
});
