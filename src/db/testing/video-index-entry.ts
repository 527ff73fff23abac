import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { activeVideoKey } from "@/db/keys";
import type { Table } from "@/db/table";

/** For tests: the type of a video's entry in the active-video index ("ActiveVideo", "DeletedVideo"), or null. */
export async function videoIndexEntryType(table: Table, videoId: string): Promise<string | null> {
  const output = await table.documentClient.send(
    new GetCommand({ TableName: table.tableName, Key: activeVideoKey(videoId), ConsistentRead: true }),
  );
  return (output.Item?.type as string | undefined) ?? null;
}
