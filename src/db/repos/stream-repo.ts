import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import { createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { creatorPk, LIST_PREFIXES, streamKey } from "../keys";
import {
  getItem,
  itemOf,
  type Page,
  parseStoredItem,
  putNew,
  type QueryStats,
  queryPage,
  type Table,
  translateWriteError,
} from "../table";

/** A live stream Truss watches: its video source, its chat, and where capture stands. */
export const STREAM_STATUSES = ["SCHEDULED", "LIVE", "ENDED", "FAILED"] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];

export const Stream = z.object({
  streamId: z.string(),
  creatorId: z.string(),
  title: z.string(),
  platform: z.enum(["twitch", "youtube", "rtmp", "hls"]),
  sourceUrl: z.string(),
  chatChannel: z.string().nullable(),
  status: z.enum(STREAM_STATUSES),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** Recorded VOD, once captured, is processed like an uploaded video. */
  videoId: z.string().nullable(),
  failureReason: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Stream = z.infer<typeof Stream>;

export type NewStream = Pick<Stream, "title" | "platform" | "sourceUrl" | "chatChannel">;

/** Creates a stream record (SCHEDULED). */
export async function createStream({
  table,
  creatorId,
  stream,
}: {
  table: Table;
  creatorId: string;
  stream: NewStream;
}) {
  const now = new Date().toISOString();
  const record: Stream = {
    ...stream,
    streamId: createId("stream"),
    creatorId,
    status: "SCHEDULED",
    startedAt: null,
    endedAt: null,
    videoId: null,
    failureReason: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await putNew({
    table,
    item: itemOf(streamKey(creatorId, record.streamId), "Stream", record),
    conflictMessage: "This stream already exists.",
  });
  return record;
}

/** One stream of a creator, or undefined (another creator's stream is simply not found). */
export function findStreamById({
  table,
  creatorId,
  streamId,
}: {
  table: Table;
  creatorId: string;
  streamId: string;
}) {
  return getItem({ table, key: streamKey(creatorId, streamId), schema: Stream });
}

/** A creator's streams, newest first. */
export function listStreams(options: {
  table: Table;
  creatorId: string;
  limit: number;
  cursor?: string | null;
  onStats?: (stats: QueryStats) => void;
}): Promise<Page<Stream>> {
  return queryPage({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "prefix", prefix: LIST_PREFIXES.streams },
    list: "streams",
    limit: options.limit,
    cursor: options.cursor,
    newestFirst: true,
    schema: Stream,
    onStats: options.onStats,
  });
}

const ALLOWED_TRANSITIONS: Record<StreamStatus, StreamStatus[]> = {
  SCHEDULED: ["LIVE", "ENDED", "FAILED"],
  LIVE: ["ENDED", "FAILED"],
  ENDED: [],
  FAILED: [],
};

/** Moves a stream to `to`, only from a status that may lead there; a race loses with 409. */
export async function updateStreamStatus({
  table,
  creatorId,
  streamId,
  to,
  failureReason,
}: {
  table: Table;
  creatorId: string;
  streamId: string;
  to: StreamStatus;
  failureReason?: string;
}): Promise<Stream> {
  const from = STREAM_STATUSES.filter((status) => ALLOWED_TRANSITIONS[status].includes(to));
  const now = new Date().toISOString();
  try {
    const output = await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: streamKey(creatorId, streamId),
        UpdateExpression: `SET #status = :to, updatedAt = :now, version = version + :one${to === "LIVE" ? ", startedAt = :now" : ""}${to === "ENDED" || to === "FAILED" ? ", endedAt = :now" : ""}${failureReason ? ", failureReason = :reason" : ""}`,
        ConditionExpression: `attribute_exists(PK) AND #status IN (${from.map((_, index) => `:from${index}`).join(", ")})`,
        ExpressionAttributeNames: { "#status": "status" },
        ExpressionAttributeValues: {
          ":to": to,
          ":now": now,
          ":one": 1,
          ...(failureReason ? { ":reason": failureReason } : {}),
          ...Object.fromEntries(from.map((status, index) => [`:from${index}`, status])),
        },
        ReturnValues: "ALL_NEW",
      }),
    );
    return parseStoredItem(Stream, output.Attributes);
  } catch (error) {
    const translated = translateWriteError(error, `This stream cannot move to ${to} from its current state.`);
    if (translated instanceof AppError && translated.code === "conflict") {
      const existing = await findStreamById({ table, creatorId, streamId });
      if (!existing) throw new AppError("not_found", "No such stream.");
    }
    throw translated;
  }
}
