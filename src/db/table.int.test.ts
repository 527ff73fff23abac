import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
} from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { testTable } from "../../dev/test/runtime";
import { type Key, videoKey } from "./keys";
import { deleteKeys, type Table } from "./table";

const table = testTable();

async function putKeys(keys: Key[]) {
  for (const key of keys) {
    await table.documentClient.send(
      new PutCommand({ TableName: table.tableName, Item: { ...key, type: "VIDEO" } }),
    );
  }
}

async function exists(key: Key): Promise<boolean> {
  const output = await table.documentClient.send(
    new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }),
  );
  return output.Item !== undefined;
}

/**
 * The real table, but each BatchWrite sends only its first `passed` requests and hands the rest
 * back as unprocessed, as DynamoDB does when a partition is throttled.
 */
function tableLeavingRequestsUnprocessed(passed: number): { table: Table; batchWrites: number[] } {
  const batchWrites: number[] = [];
  const send = async (command: unknown) => {
    if (!(command instanceof BatchWriteCommand)) throw new Error("only BatchWrite is expected");
    const requests = command.input.RequestItems?.[table.tableName] ?? [];
    batchWrites.push(requests.length);
    const sent = requests.slice(0, passed);
    const kept = requests.slice(passed);
    if (sent.length > 0) {
      await table.documentClient.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: sent } }));
    }
    return { UnprocessedItems: kept.length > 0 ? { [table.tableName]: kept } : {} };
  };
  return {
    table: { ...table, documentClient: { send } as unknown as DynamoDBDocumentClient },
    batchWrites,
  };
}

describe("deleteKeys", () => {
  it("deletes any number of keys, 25 a BatchWrite, keys already gone included, and nothing else", async () => {
    const creatorId = createId("creator");
    const keys = Array.from({ length: 60 }, () => videoKey(creatorId, createId("video")));
    await putKeys(keys);
    const neverWritten = Array.from({ length: 5 }, () => videoKey(creatorId, createId("video")));

    await deleteKeys(table, [...keys.slice(0, 55), ...neverWritten]);

    const left = await Promise.all(keys.map(exists));
    expect(left.slice(0, 55).filter(Boolean)).toHaveLength(0);
    expect(left.slice(55)).toEqual([true, true, true, true, true]);
    // Deleting again is harmless: a retried delete of a video or of sessions repeats it.
    await deleteKeys(table, keys.slice(0, 55));
    await deleteKeys(table, []);
  });

  it("sends again what DynamoDB leaves unprocessed until every key is gone", async () => {
    const creatorId = createId("creator");
    const keys = Array.from({ length: 30 }, () => videoKey(creatorId, createId("video")));
    await putKeys(keys);
    const throttled = tableLeavingRequestsUnprocessed(10);

    await deleteKeys(throttled.table, keys);

    expect((await Promise.all(keys.map(exists))).filter(Boolean)).toHaveLength(0);
    // 25 keys: 10 deleted a call, so 25, 15, 5; then the last 5.
    expect(throttled.batchWrites).toEqual([25, 15, 5, 5]);
  });

  it("gives up with 'unavailable' when DynamoDB keeps every request back", async () => {
    const creatorId = createId("creator");
    const key = videoKey(creatorId, createId("video"));
    await putKeys([key]);
    const stuck = tableLeavingRequestsUnprocessed(0);

    const failure = await deleteKeys(stuck.table, [key]).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: "unavailable", message: expect.stringMatching(/try again/) });
    expect(stuck.batchWrites).toHaveLength(10);
    expect(await exists(key)).toBe(true);
  }, 15_000);
});
