import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { rateLimitKey } from "@/db/keys";
import { parseStoredItem, type Table } from "@/db/table";

/**
 * Fixed-window counters (`RATELIMIT#<scope>#<subject>` / `WINDOW#<windowStartMs>`). One
 * atomic ADD per hit returns the new count; `expiresAt` (the table's TTL attribute) lets
 * DynamoDB clean old windows up. The window start is part of the key, so a stale item from
 * an earlier window is never counted, whether or not TTL has removed it yet.
 */

const CounterAttributes = z.object({ count: z.number().int().positive(), expiresAt: z.number().int() });

export type WindowHit = {
  count: number;
  windowStartMs: number;
  windowEndMs: number;
};

// Count one hit in the current window of (scope, subject) and return the window's total.
export async function incrementRateLimitWindow(options: {
  table: Table;
  scope: string;
  subject: string;
  windowMs: number;
  nowMs?: number;
}): Promise<WindowHit> {
  const { table, scope, subject, windowMs } = options;
  const nowMs = options.nowMs ?? Date.now();
  const windowStartMs = Math.floor(nowMs / windowMs) * windowMs;
  const windowEndMs = windowStartMs + windowMs;
  const output = await table.documentClient.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: rateLimitKey(scope, subject, windowStartMs),
      UpdateExpression: "ADD #count :one SET #type = :type, expiresAt = :expiresAt",
      ExpressionAttributeNames: { "#count": "count", "#type": "type" },
      ExpressionAttributeValues: {
        ":one": 1,
        ":type": "RateLimitWindow",
        ":expiresAt": Math.ceil(windowEndMs / 1000),
      },
      ReturnValues: "ALL_NEW",
    }),
  );
  const counter = parseStoredItem(CounterAttributes, output.Attributes);
  return { count: counter.count, windowStartMs, windowEndMs };
}
