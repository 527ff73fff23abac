import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { countTableRequests } from "@/db/testing/count-table-requests";
import { createId } from "@/lib/ids";
import type { AppError } from "@/server/errors";
import { testTable } from "../../../dev/test/runtime";
import {
  createApiToken,
  deleteApiToken,
  findApiTokenOwnerByHash,
  listApiTokensByCreator,
  MAX_API_TOKENS_PER_CREATOR,
  renameApiToken,
} from "./api-token-repo";

const table = testTable();
const newHash = () => randomBytes(32).toString("hex");

async function makeToken(creatorId: string, name: string) {
  const tokenHash = newHash();
  const token = await createApiToken({
    table,
    creatorId,
    tokenId: createId("apiToken"),
    name,
    tokenHash,
    displayPrefix: "truss_abcd…",
  });
  return { ...token, tokenHash };
}

describe("API token repository", () => {
  it("resolves a token hash to its owner, and lists newest first", async () => {
    const creatorId = createId("creator");
    const first = await makeToken(creatorId, "first");
    const second = await makeToken(creatorId, "second");
    expect(await findApiTokenOwnerByHash({ table, tokenHash: first.tokenHash })).toEqual({
      creatorId,
      tokenId: first.tokenId,
    });
    const listed = await listApiTokensByCreator({ table, creatorId });
    expect(listed.map((token) => token.name)).toEqual(["second", "first"]);
    expect(listed[0]).not.toHaveProperty("tokenHash");
    expect(second.tokenId > first.tokenId).toBe(true);
  });

  it("resolves a token with a strongly consistent read, so a revoked one stops at once on DynamoDB", async () => {
    // DynamoDB Local is always consistent: the request itself is looked at.
    const token = await makeToken(createId("creator"), "ci");
    const requests = countTableRequests(table);
    try {
      expect(await findApiTokenOwnerByHash({ table, tokenHash: token.tokenHash })).toBeDefined();
      expect(requests.bodies("GetItem")).toEqual([expect.objectContaining({ ConsistentRead: true })]);
    } finally {
      requests.stop();
    }
  });

  it("revokes both items; the hash stops resolving", async () => {
    const creatorId = createId("creator");
    const token = await makeToken(creatorId, "ci");
    await deleteApiToken({ table, creatorId, tokenId: token.tokenId });
    expect(await findApiTokenOwnerByHash({ table, tokenHash: token.tokenHash })).toBeUndefined();
    expect(await listApiTokensByCreator({ table, creatorId })).toEqual([]);
  });

  it("cannot rename or revoke another creator's token", async () => {
    const owner = createId("creator");
    const intruder = createId("creator");
    const token = await makeToken(owner, "owner's");
    const renameError = await renameApiToken({
      table,
      creatorId: intruder,
      tokenId: token.tokenId,
      name: "x",
    }).catch((caught) => caught);
    expect((renameError as AppError).code).toBe("not_found");
    const deleteError = await deleteApiToken({ table, creatorId: intruder, tokenId: token.tokenId }).catch(
      (caught) => caught,
    );
    expect((deleteError as AppError).code).toBe("not_found");
    expect(await findApiTokenOwnerByHash({ table, tokenHash: token.tokenHash })).toBeDefined();
    expect((await listApiTokensByCreator({ table, creatorId: owner }))[0]?.name).toBe("owner's");
    // The failed rename must not have created an item in the intruder's partition.
    expect(await listApiTokensByCreator({ table, creatorId: intruder })).toEqual([]);
  });

  it("lists every token, even past the cap (racing creates), so each can be seen and revoked", async () => {
    const creatorId = createId("creator");
    // The cap is checked before the write, not with it: creates at once can each pass it.
    const count = MAX_API_TOKENS_PER_CREATOR + 3;
    const made: string[] = [];
    for (let index = 0; index < count; index++) made.push((await makeToken(creatorId, `t${index}`)).tokenId);
    const listed = await listApiTokensByCreator({ table, creatorId });
    expect(listed).toHaveLength(count);
    expect(listed.map((token) => token.tokenId)).toEqual([...made].reverse());
    const oldest = made[0]!;
    await deleteApiToken({ table, creatorId, tokenId: oldest });
    expect((await listApiTokensByCreator({ table, creatorId })).map((token) => token.tokenId)).not.toContain(
      oldest,
    );
  });
});
