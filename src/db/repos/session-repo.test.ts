import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import type { Table } from "@/db/table";
import { findActiveSession, findSession, listSessionHashesByCreator } from "./session-repo";

/**
 * The reads that decide whether a request is signed in, or which sessions "sign out everywhere"
 * ends, are strongly consistent: an eventually consistent read on DynamoDB can still see a
 * session for about a second after it ended. DynamoDB Local is always consistent, so the
 * commands are checked as built (offline).
 */
function recordingTable(answer: (command: unknown) => Record<string, unknown>) {
  const sent: unknown[] = [];
  const table = {
    tableName: "truss-test",
    cursorSecret: "x".repeat(32),
    documentClient: {
      send: async (command: unknown) => {
        sent.push(command);
        return answer(command);
      },
    },
  } as unknown as Table;
  return { table, sent };
}

const storedSession = {
  PK: "SESSION#abc",
  SK: "SESSION",
  type: "Session",
  creatorId: "creator_1",
  expiresAt: 4_000_000_000,
  createdAt: "2026-01-01T00:00:00.000Z",
};

describe("session reads that authenticate", () => {
  it("read the session item with ConsistentRead", async () => {
    const { table, sent } = recordingTable(() => ({ Item: storedSession }));
    expect(await findSession({ table, tokenHash: "abc" })).toMatchObject({ creatorId: "creator_1" });
    expect(await findActiveSession({ table, tokenHash: "abc", nowMs: 0 })).toMatchObject({
      creatorId: "creator_1",
    });
    expect(sent).toHaveLength(2);
    for (const command of sent) {
      expect(command).toBeInstanceOf(GetCommand);
      expect((command as GetCommand).input).toMatchObject({
        Key: { PK: "SESSION#abc" },
        ConsistentRead: true,
      });
    }
  });

  it("list a creator's sessions (sign out everywhere) with ConsistentRead on every page", async () => {
    let page = 0;
    const { table, sent } = recordingTable(() => {
      page++;
      return {
        Items: [
          {
            PK: "CREATOR#creator_1",
            SK: `SESSION#hash${page}`,
            type: "SessionRef",
            expiresAt: 4_000_000_000,
            createdAt: "2026-01-01T00:00:00.000Z",
          },
        ],
        LastEvaluatedKey: page === 1 ? { PK: "CREATOR#creator_1", SK: "SESSION#hash1" } : undefined,
      };
    });
    expect(await listSessionHashesByCreator({ table, creatorId: "creator_1" })).toEqual(["hash1", "hash2"]);
    expect(sent).toHaveLength(2);
    for (const command of sent) {
      expect(command).toBeInstanceOf(QueryCommand);
      expect((command as QueryCommand).input.ConsistentRead).toBe(true);
    }
  });
});
