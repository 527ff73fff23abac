import {
  ConditionalCheckFailedException,
  type ConsumedCapacity,
  TransactionCanceledException,
} from "@aws-sdk/client-dynamodb";
import {
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from "@aws-sdk/lib-dynamodb";
import type { z } from "zod";
import { AppError } from "@/server/errors";
import { decodeCursor, encodeCursor } from "./cursor";
import type { EntityType, Key } from "./keys";

/**
 * The few table operations every repository shares. Repositories own their item schemas and
 * access patterns; this module owns how a Query page, a conditional create and a transaction
 * are spoken, and how DynamoDB's failures become AppErrors.
 */
export type Table = {
  documentClient: DynamoDBDocumentClient;
  tableName: string;
  /** Signs pagination cursors. */
  cursorSecret: string;
};

export type Page<T> = {
  items: T[];
  /** Opaque; null on the last page. */
  nextCursor: string | null;
};

/** What a Query cost: integration tests assert a page reads nothing it throws away. */
export type QueryStats = { count: number; scannedCount: number; consumedReadUnits: number };

export const MAX_PAGE_SIZE = 100;

/** DynamoDB's item size limit is 400 KB; refuse a little earlier with a clear message. */
export const MAX_ITEM_BYTES = 390 * 1024;

export type KeyRange = { kind: "prefix"; prefix: string } | { kind: "between"; from: string; to: string };

export async function queryPage<T>(options: {
  table: Table;
  pk: string;
  range: KeyRange;
  /** Names the list a cursor belongs to; a cursor from another list is refused. */
  list: string;
  limit: number;
  cursor?: string | null;
  newestFirst?: boolean;
  schema: z.ZodType<T>;
  onStats?: (stats: QueryStats) => void;
}): Promise<Page<T>> {
  const { table, pk, range, list, schema } = options;
  const limit = Math.min(Math.max(1, Math.floor(options.limit)), MAX_PAGE_SIZE);
  const scope = { secret: table.cursorSecret, pk, list };
  const exclusiveStartKey = decodeCursor(scope, options.cursor);
  const { condition: rangeCondition, values } = rangeConditionOf(range);
  if (exclusiveStartKey !== undefined) {
    const sk = String(exclusiveStartKey.SK ?? "");
    const inRange =
      range.kind === "prefix" ? sk.startsWith(range.prefix) : sk >= range.from && sk <= range.to;
    if (!inRange)
      throw new AppError(
        "bad_request",
        "The cursor is not valid for this list. Start again from the first page.",
      );
  }
  const input: QueryCommandInput = {
    TableName: table.tableName,
    KeyConditionExpression: `PK = :pk AND ${rangeCondition}`,
    ExpressionAttributeValues: { ":pk": pk, ...values },
    Limit: limit,
    ScanIndexForward: !options.newestFirst,
    ExclusiveStartKey: exclusiveStartKey,
    ReturnConsumedCapacity: options.onStats ? "TOTAL" : undefined,
  };
  const output = await table.documentClient.send(new QueryCommand(input));
  options.onStats?.(queryStatsOf(output));
  return {
    items: (output.Items ?? []).map((item) => parseStoredItem(schema, item)),
    nextCursor: encodeCursor(scope, output.LastEvaluatedKey),
  };
}

/** The key condition on SK for a range, with its placeholder values. */
function rangeConditionOf(range: KeyRange): { condition: string; values: Record<string, string> } {
  return range.kind === "prefix"
    ? { condition: "begins_with(SK, :skPrefix)", values: { ":skPrefix": range.prefix } }
    : { condition: "SK BETWEEN :skFrom AND :skTo", values: { ":skFrom": range.from, ":skTo": range.to } };
}

/**
 * Every item of a partition (or of a key range in it), one Query a page until the last: for
 * the few reads that need a small set whole — a video's clips, a creator's sessions, a range of
 * daily counters, the index partitions the sweep reads — never for a list a person pages.
 */
export async function queryAllItems<T>(options: {
  table: Table;
  pk: string;
  range?: KeyRange;
  schema: z.ZodType<T>;
  /** Read only these attributes (a projection); every attribute when left out. */
  attributes?: string[];
  consistent?: boolean;
  onStats?: (stats: QueryStats) => void;
}): Promise<T[]> {
  const { table, schema, attributes } = options;
  const range = options.range ? rangeConditionOf(options.range) : null;
  // Through placeholders: some attribute names (`status`, `name`) are DynamoDB reserved words.
  const projection = attributes && {
    ProjectionExpression: attributes.map((_, index) => `#a${index}`).join(", "),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, index) => [`#a${index}`, name])),
  };
  const items: T[] = [];
  let exclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const output = await table.documentClient.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: range ? `PK = :pk AND ${range.condition}` : "PK = :pk",
        ExpressionAttributeValues: { ":pk": options.pk, ...range?.values },
        ...projection,
        ConsistentRead: options.consistent,
        ExclusiveStartKey: exclusiveStartKey,
        ReturnConsumedCapacity: options.onStats ? "TOTAL" : undefined,
      }),
    );
    options.onStats?.(queryStatsOf(output));
    for (const item of output.Items ?? []) items.push(parseStoredItem(schema, item));
    exclusiveStartKey = output.LastEvaluatedKey;
  } while (exclusiveStartKey);
  return items;
}

/** What one Query read (reported through `onStats` by queryPage and queryAllItems). */
function queryStatsOf(output: {
  Count?: number;
  ScannedCount?: number;
  ConsumedCapacity?: ConsumedCapacity;
}): QueryStats {
  const capacity = output.ConsumedCapacity;
  return {
    count: output.Count ?? 0,
    scannedCount: output.ScannedCount ?? 0,
    consumedReadUnits: capacity?.CapacityUnits ?? capacity?.ReadCapacityUnits ?? 0,
  };
}

/** BatchWrite's most requests a call. */
const BATCH_WRITE_LIMIT = 25;
/** Tries per batch before giving up on what DynamoDB keeps leaving unprocessed (throttling). */
const BATCH_WRITE_ATTEMPTS = 10;

/**
 * Deletes keys in BatchWrite groups of 25, retrying with backoff what DynamoDB leaves
 * unprocessed; deleting a key that is already gone succeeds, so a retry after a failure is safe.
 * After ten tries a batch it fails with `unavailable` (503: try again).
 */
export async function deleteKeys(table: Table, keys: readonly Key[]): Promise<void> {
  for (let start = 0; start < keys.length; start += BATCH_WRITE_LIMIT) {
    let requests: Record<string, unknown>[] = keys
      .slice(start, start + BATCH_WRITE_LIMIT)
      .map((key) => ({ DeleteRequest: { Key: key } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt >= BATCH_WRITE_ATTEMPTS) {
        throw new AppError("unavailable", "The database is busy and kept some deletes back; try again.");
      }
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
      const output = await table.documentClient.send(
        new BatchWriteCommand({ RequestItems: { [table.tableName]: requests as never } }),
      );
      requests = (output.UnprocessedItems?.[table.tableName] ?? []) as Record<string, unknown>[];
    }
  }
}

export async function getItem<T>(options: {
  table: Table;
  key: Key;
  schema: z.ZodType<T>;
  consistent?: boolean;
}) {
  const output = await options.table.documentClient.send(
    new GetCommand({
      TableName: options.table.tableName,
      Key: options.key,
      ConsistentRead: options.consistent,
    }),
  );
  return output.Item ? parseStoredItem(options.schema, output.Item) : undefined;
}

/**
 * A stored item read through its schema. An item that fails it is our bug or a migration we
 * missed, not the caller's input: it must not surface as a 422 listing schema details, so the
 * ZodError is wrapped in a plain Error (a logged 500) that names the item's key.
 */
export function parseStoredItem<T>(schema: z.ZodType<T>, item: Record<string, unknown> | undefined): T {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  throw new Error(
    `Stored item ${String(item?.PK ?? "(key not read)")} ${String(item?.SK ?? "")} failed its schema`,
    { cause: parsed.error },
  );
}

/** The attributes every item carries besides its own: keys and the entity name. */
export function itemOf<T extends object>(key: Key, type: EntityType, attributes: T) {
  return { ...key, type, ...attributes };
}

export function assertItemSize(item: object, entity: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(item));
  if (bytes > MAX_ITEM_BYTES) {
    throw new AppError(
      "payload_too_large",
      `This ${entity} is too large to store (${Math.round(bytes / 1024)} KB; the limit is ${MAX_ITEM_BYTES / 1024} KB).`,
    );
  }
}

/** Creates an item that must not exist yet; `conflictMessage` is what the caller sees if it does. */
export async function putNew(options: {
  table: Table;
  item: Key & Record<string, unknown>;
  conflictMessage: string;
}) {
  assertItemSize(options.item, String(options.item.type ?? "item"));
  try {
    await options.table.documentClient.send(
      new PutCommand({
        TableName: options.table.tableName,
        Item: options.item,
        ConditionExpression: "attribute_not_exists(PK)",
      }),
    );
  } catch (error) {
    throw translateWriteError(error, options.conflictMessage);
  }
}

export async function transactWrite(options: {
  table: Table;
  items: NonNullable<TransactWriteCommandInput["TransactItems"]>;
  conflictMessage: string;
}) {
  try {
    await options.table.documentClient.send(new TransactWriteCommand({ TransactItems: options.items }));
  } catch (error) {
    throw translateWriteError(error, options.conflictMessage);
  }
}

/** A failed condition is a conflict the caller can explain; anything else stays a failure. */
export function translateWriteError(error: unknown, conflictMessage: string): unknown {
  if (error instanceof ConditionalCheckFailedException)
    return new AppError("conflict", conflictMessage, { cause: error });
  if (error instanceof TransactionCanceledException) {
    const reasons = error.CancellationReasons?.map((reason) => reason.Code) ?? [];
    if (reasons.includes("ConditionalCheckFailed"))
      return new AppError("conflict", conflictMessage, { cause: error });
  }
  if (error instanceof Error && error.name === "ValidationException" && /size/i.test(error.message)) {
    return new AppError("payload_too_large", "The item is larger than the table allows (400 KB).", {
      cause: error,
    });
  }
  return error;
}

export function isConditionFailure(error: unknown): boolean {
  return error instanceof AppError && error.code === "conflict";
}
