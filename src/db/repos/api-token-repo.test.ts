import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { Table } from "@/db/table";
import { findApiTokenOwnerByHash } from "./api-token-repo";

/**
 * The lookup that authenticates a Bearer token is strongly consistent: an eventually consistent
 * read on DynamoDB can still find a revoked token for about a second. DynamoDB Local is always
 * consistent, so the command is checked as built (offline).
 */
describe("API token lookup", () => {
  it("reads the lookup item with ConsistentRead", async () => {
    const sent: unknown[] = [];
    const table = {
      tableName: "truss-test",
      cursorSecret: "x".repeat(32),
      documentClient: {
        send: async (command: unknown) => {
          sent.push(command);
          return {
            Item: {
              PK: "APITOKEN#abc",
              SK: "APITOKEN",
              type: "ApiTokenLookup",
              creatorId: "creator_1",
              tokenId: "apiToken_1",
              createdAt: "2026-01-01T00:00:00.000Z",
            },
          };
        },
      },
    } as unknown as Table;
    expect(await findApiTokenOwnerByHash({ table, tokenHash: "abc" })).toEqual({
      creatorId: "creator_1",
      tokenId: "apiToken_1",
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeInstanceOf(GetCommand);
    expect((sent[0] as GetCommand).input).toMatchObject({
      Key: { PK: "APITOKEN#abc" },
      ConsistentRead: true,
    });
  });
});
