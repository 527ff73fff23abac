import { ConditionalCheckFailedException, TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import {
  ACTIVE_VIDEO_SHARD_COUNT,
  activeVideoKey,
  activeVideoPk,
  chaptersKey,
  clipIdOfSk,
  clipSkPrefixForVideo,
  creatorPk,
  type Key,
  LIST_PREFIXES,
  uploadPartsKey,
  videoKey,
} from "@/db/keys";
import { type ClipAsRead, deleteClip } from "@/db/repos/clip-repo";
import {
  assertItemSize,
  deleteKeys,
  getItem,
  itemOf,
  type Page,
  parseStoredItem,
  type QueryStats,
  queryAllItems,
  queryPage,
  type Table,
  transactWrite,
  translateWriteError,
} from "@/db/table";
import { ClipOptions, DEFAULT_CLIP_OPTIONS } from "@/engine/clip-options";
import { clipIdPrefixForVideo } from "@/lib/ids";
import { isTerminalStatus, VIDEO_STATUSES } from "@/lib/video-status";
import { DYNAMIC_RANGES } from "@/media/dynamic-range";
import { AppError } from "@/server/errors";

/**
 * Videos (`CREATOR#<id>` / `ASSET#<videoId>`) and the items that follow them:
 * - the active-video index item (`ACTIVE_VIDEO#<shard>` / `<videoId>`), present while the video
 *   is not READY or FAILED and written in the same transaction as every status change, so the
 *   sweep finds stuck videos and abandoned uploads without a Scan;
 * - the upload-parts item (`UPLOAD_PARTS#<videoId>`) of a multipart upload.
 * Chapters and clip items are written by the pipeline; this module reads and deletes them with
 * their video.
 */

export const VideoStatus = z.enum(VIDEO_STATUSES);
export type VideoStatus = z.infer<typeof VideoStatus>;

/**
 * Which status may follow which. READY → QUEUED/RENDERING covers re-analysis and re-renders;
 * FAILED → QUEUED a retry of a video whose file was fine.
 */
export const ALLOWED_TRANSITIONS: Record<VideoStatus, readonly VideoStatus[]> = {
  UPLOADING: ["UPLOADED", "FAILED"],
  UPLOADED: ["QUEUED", "FAILED"],
  QUEUED: ["ANALYZING", "FAILED"],
  ANALYZING: ["RENDERING", "READY", "QUEUED", "FAILED"],
  RENDERING: ["READY", "ANALYZING", "QUEUED", "FAILED"],
  READY: ["QUEUED", "RENDERING"],
  FAILED: ["QUEUED"],
};

/** ffprobe's answer as stored (the engine's `MediaProbe`). */
export const MediaProbeSchema = z.object({
  durationSeconds: z.number().nonnegative(),
  width: z.number().int().nonnegative(),
  height: z.number().int().nonnegative(),
  codedWidth: z.number().int().nonnegative(),
  codedHeight: z.number().int().nonnegative(),
  // Probes stored before it was read had square pixels as far as the engine knew.
  sampleAspectRatio: z.number().positive().default(1),
  rotationDegrees: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
  fps: z.number().nonnegative(),
  isVariableFrameRate: z.boolean(),
  hasVideo: z.boolean(),
  hasAudio: z.boolean(),
  videoCodec: z.string().nullable(),
  audioCodec: z.string().nullable(),
  bitrateBitsPerSecond: z.number().nullable(),
  formatName: z.string(),
  sizeBytes: z.number().nullable(),
  // Probes stored before it was read are SDR: HDR sources were not told apart then.
  dynamicRange: z.enum(DYNAMIC_RANGES).default("sdr"),
  // Probes stored before it was read: as far as the engine knew, the picture ran to the end.
  pictureEndSeconds: z.number().nonnegative().nullish(),
});

export const VideoAnalysisInfo = z.object({
  analyzer: z.enum(["local", "gemini"]),
  /** Why Gemini's answer was not used, when it was configured. */
  fallbackReason: z.string().nullable(),
});

/** The subtitle file a creator gave for a video, whose cues are burned into its clips. */
export const VideoCaptionsInfo = z.object({
  fileName: z.string(),
  format: z.enum(["srt", "vtt"]),
  cueCount: z.number().int().positive(),
  uploadedAt: z.string(),
});
export type VideoCaptions = z.infer<typeof VideoCaptionsInfo>;

export const VideoItem = z.object({
  type: z.literal("Video"),
  creatorId: z.string(),
  videoId: z.string(),
  status: VideoStatus,
  /** Finer-grained step inside the status ("probing", "signals", "rendering clip 2 of 5"). */
  stage: z.string().nullable(),
  progressPercent: z.number().min(0).max(100),
  /** Set when FAILED: a reason a person understands. */
  failureReason: z.string().nullable(),
  origin: z.enum(["upload", "import"]),
  /** The name the creator's file had, for display only (never part of a storage key). */
  filename: z.string(),
  declaredContentType: z.string().nullable(),
  declaredSizeBytes: z.number().int().nonnegative().nullable(),
  /** For imports: the URL the worker fetches. */
  importUrl: z.string().nullable(),
  /** Object key of the source file (storage/object-keys.ts). */
  sourceKey: z.string(),
  /**
   * For a source ffmpeg cannot cut exactly (MPEG-TS): the Matroska copy analysis made of it,
   * stored so a re-render seeks in it over HTTP instead of downloading and copying the whole
   * capture again. Null for every other source.
   */
  seekableCopyKey: z.string().nullable().default(null),
  uploadKind: z.enum(["single", "multipart"]),
  /** S3 multipart upload id while the upload is open; null once completed or aborted. */
  uploadId: z.string().nullable(),
  partSizeBytes: z.number().int().positive().nullable(),
  partCount: z.number().int().positive().nullable(),
  /** Size of the stored object (HeadObject), once uploaded. */
  sourceSizeBytes: z.number().int().nonnegative().nullable(),
  sourceContentType: z.string().nullable(),
  /**
   * ETag of the source object as upload-complete (or the import) verified it. Every worker read
   * of the source is conditional on it (If-Match), so a file stored under the key since (a
   * second PUT through an upload URL still valid) is never read. Null before the upload is
   * complete, and on videos stored before it was recorded: those are read unconditionally.
   */
  sourceEtag: z.string().nullable().default(null),
  /**
   * While an upload-complete request closes and verifies the upload: until when it holds that
   * work (ISO time). A concurrent request (a second tab) waits for its outcome instead of doing
   * the same work alongside; a request that died lets go when the time passes.
   */
  completingUntil: z.string().nullable().default(null),
  /**
   * The run of the analysis pipeline working on the video, and until when it holds it (ISO
   * time; renewed while it works). A second copy of the job, on another worker, waits for the
   * hold to be let go or to lapse instead of running the same stages alongside.
   */
  pipelineRunId: z.string().nullable().default(null),
  pipelineHeldUntil: z.string().nullable().default(null),
  probe: MediaProbeSchema.nullable(),
  thumbnailKey: z.string().nullable(),
  analysis: VideoAnalysisInfo.nullable(),
  /** Videos stored before captions could be given have none. */
  captions: VideoCaptionsInfo.nullable().default(null),
  /** How many clips the creator asked for, and how long; videos stored before had the defaults. */
  clipOptions: ClipOptions.default(DEFAULT_CLIP_OPTIONS),
  clipCount: z.number().int().nonnegative(),
  /** How often the sweep re-queued this video while it was stuck. */
  requeueCount: z.number().int().nonnegative(),
  /**
   * When it first became READY, and was counted in the day's analytics: a request for other
   * clips makes it READY again without counting it twice. Videos stored before read as null.
   */
  processedAt: z.string().nullable().default(null),
  /**
   * The ranges of clips the creator deleted: another request for other clips does not offer
   * them again. Two numbers a deletion, and a creator deletes a few clips a video.
   */
  deletedClipRanges: z.array(z.object({ startSeconds: z.number(), endSeconds: z.number() })).default([]),
  createdAt: z.string(),
  updatedAt: z.string(),
  uploadedAt: z.string().nullable(),
  /** Incremented by every write; edits may require the version they were based on. */
  version: z.number().int().nonnegative(),
});

export type Video = Omit<z.infer<typeof VideoItem>, "type">;

/** Fields a caller may change besides status, stage and progress. */
export type VideoChanges = Partial<
  Pick<
    Video,
    | "filename"
    | "uploadId"
    | "sourceSizeBytes"
    | "sourceContentType"
    | "sourceEtag"
    | "completingUntil"
    | "pipelineRunId"
    | "pipelineHeldUntil"
    | "probe"
    | "thumbnailKey"
    | "seekableCopyKey"
    | "analysis"
    | "captions"
    | "clipOptions"
    | "clipCount"
    | "requeueCount"
    | "processedAt"
    | "uploadedAt"
  >
>;

const ActiveVideoItem = z.object({
  type: z.literal("ActiveVideo"),
  creatorId: z.string(),
  videoId: z.string(),
  status: VideoStatus,
  updatedAt: z.string(),
});
export type ActiveVideoEntry = Omit<z.infer<typeof ActiveVideoItem>, "type">;

/** A deleted video, in the active-video index until the last URL signed for its upload expires. */
const DeletedVideoItem = z.object({
  type: z.literal("DeletedVideo"),
  creatorId: z.string(),
  videoId: z.string(),
  /** When the video's folder is emptied once more (an upload URL may store an object until then). */
  emptyFolderAfter: z.string(),
});
export type DeletedVideoEntry = Omit<z.infer<typeof DeletedVideoItem>, "type">;

const VideoIndexItem = z.discriminatedUnion("type", [ActiveVideoItem, DeletedVideoItem]);

const UploadPartsItem = z.object({
  type: z.literal("VideoUploadParts"),
  uploadId: z.string(),
  /** part number (as a string: DynamoDB map keys) → ETag */
  parts: z.record(z.string(), z.string()),
  /** When the browser last reported a part: an upload is abandoned only when this is old too. */
  lastPartAt: z.string().optional(),
});

function toVideo(item: z.infer<typeof VideoItem>): Video {
  const { type: _type, ...video } = item;
  return video;
}

const activeIndexItem = (video: Pick<Video, "creatorId" | "videoId" | "status" | "updatedAt">) =>
  itemOf(activeVideoKey(video.videoId), "ActiveVideo", {
    creatorId: video.creatorId,
    videoId: video.videoId,
    status: video.status,
    updatedAt: video.updatedAt,
  });

export type NewVideo = Pick<
  Video,
  | "creatorId"
  | "videoId"
  | "origin"
  | "filename"
  | "declaredContentType"
  | "declaredSizeBytes"
  | "importUrl"
  | "sourceKey"
  | "uploadKind"
  | "uploadId"
  | "partSizeBytes"
  | "partCount"
> & { stage?: string | null; clipOptions?: ClipOptions };

// Create a video in UPLOADING with its active-index item (and parts item for multipart), in one transaction.
export async function createVideo(options: { table: Table; video: NewVideo; now?: Date }): Promise<Video> {
  const { table } = options;
  const nowIso = (options.now ?? new Date()).toISOString();
  const { stage = null, clipOptions = DEFAULT_CLIP_OPTIONS, ...fields } = options.video;
  const video: Video = {
    ...fields,
    status: "UPLOADING",
    stage,
    progressPercent: 0,
    failureReason: null,
    sourceSizeBytes: null,
    sourceContentType: null,
    sourceEtag: null,
    completingUntil: null,
    pipelineRunId: null,
    pipelineHeldUntil: null,
    probe: null,
    thumbnailKey: null,
    seekableCopyKey: null,
    analysis: null,
    captions: null,
    clipOptions,
    clipCount: 0,
    requeueCount: 0,
    processedAt: null,
    deletedClipRanges: [],
    createdAt: nowIso,
    updatedAt: nowIso,
    uploadedAt: null,
    version: 1,
  };
  const videoItem = itemOf(videoKey(video.creatorId, video.videoId), "Video", video);
  assertItemSize(videoItem, "video");
  const items: NonNullable<TransactWriteCommandInput["TransactItems"]> = [
    { Put: { TableName: table.tableName, Item: videoItem, ConditionExpression: "attribute_not_exists(PK)" } },
    { Put: { TableName: table.tableName, Item: activeIndexItem(video) } },
  ];
  if (video.uploadKind === "multipart" && video.uploadId) {
    items.push({
      Put: {
        TableName: table.tableName,
        Item: itemOf(uploadPartsKey(video.creatorId, video.videoId), "VideoUploadParts", {
          uploadId: video.uploadId,
          parts: {},
        }),
      },
    });
  }
  await transactWrite({ table, items, conflictMessage: "A video with this id already exists." });
  return video;
}

// One video of a creator (GetItem). Another creator's id is simply not in this partition.
export async function findVideoById(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  consistent?: boolean;
}): Promise<Video | undefined> {
  const item = await getItem({
    table: options.table,
    key: videoKey(options.creatorId, options.videoId),
    schema: VideoItem,
    consistent: options.consistent,
  });
  return item ? toVideo(item) : undefined;
}

// A creator's videos, newest first (one Query on ASSET#, opaque cursor).
export async function listVideosByCreator(options: {
  table: Table;
  creatorId: string;
  limit: number;
  cursor?: string | null;
  onStats?: (stats: QueryStats) => void;
}): Promise<Page<Video>> {
  const page = await queryPage({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "prefix", prefix: LIST_PREFIXES.videos },
    list: "videos",
    limit: options.limit,
    cursor: options.cursor,
    newestFirst: true,
    schema: VideoItem,
    onStats: options.onStats,
  });
  return { items: page.items.map(toVideo), nextCursor: page.nextCursor };
}

type Expression = {
  sets: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
};

/**
 * Every write bumps `version`; it moves `updatedAt` to `nowIso` unless that is null (a hold that
 * is not the creator's activity leaves the change time the sweep goes by).
 */
function newExpression(nowIso: string | null): Expression {
  const expression: Expression = {
    sets: ["#version = #version + :one"],
    names: { "#version": "version" },
    values: { ":one": 1 },
  };
  if (nowIso !== null) assign(expression, "updatedAt", nowIso);
  return expression;
}

/** The expression as an update's clauses (its condition is the caller's). */
function updateClauses(expression: Expression) {
  return {
    UpdateExpression: `SET ${expression.sets.join(", ")}`,
    ExpressionAttributeNames: expression.names,
    ExpressionAttributeValues: expression.values,
  };
}

/** The update of a video, made only where `condition` holds: false (nothing written) where not. */
async function updateVideoWhere(
  table: Table,
  video: { creatorId: string; videoId: string },
  expression: Expression,
  condition: string,
): Promise<boolean> {
  try {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: videoKey(video.creatorId, video.videoId),
        ...updateClauses(expression),
        ConditionExpression: condition,
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

function assign(expression: Expression, attribute: string, value: unknown) {
  expression.names[`#${attribute}`] = attribute;
  expression.values[`:${attribute}`] = value;
  expression.sets.push(`#${attribute} = :${attribute}`);
}

function assignChanges(expression: Expression, changes: VideoChanges | undefined) {
  for (const [attribute, value] of Object.entries(changes ?? {})) {
    if (value !== undefined) assign(expression, attribute, value);
  }
}

function clampPercent(value: number): number {
  return Math.max(0, Math.min(100, Math.round(value * 10) / 10));
}

/** A failed status condition, told in terms of the status the video actually has. */
function statusConflict(error: unknown, expected: readonly VideoStatus[], itemIndex = 0): AppError {
  const reason =
    error instanceof TransactionCanceledException ? error.CancellationReasons?.[itemIndex] : undefined;
  const current = reason?.Item?.status?.S;
  if (reason?.Code === "ConditionalCheckFailed" && !reason.Item)
    return new AppError("not_found", "No such video.", { cause: error });
  return new AppError(
    "conflict",
    current
      ? `The video is ${current}, not ${expected.join(" or ")}.`
      : `The video is not ${expected.join(" or ")}.`,
    { cause: error },
  );
}

// Change status (conditional on the current one), stage, progress and other fields; keeps the active index in step.
export async function updateVideoStatus(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  from: readonly VideoStatus[];
  to: VideoStatus;
  stage?: string | null;
  progressPercent?: number;
  /** Required when `to` is FAILED. */
  failureReason?: string | null;
  set?: VideoChanges;
  now?: Date;
}): Promise<Video> {
  const { table, creatorId, videoId, from, to } = options;
  if (from.length === 0) throw new Error("updateVideoStatus needs at least one `from` status");
  for (const status of from) {
    if (status !== to && !ALLOWED_TRANSITIONS[status].includes(to))
      throw new Error(`Video status cannot go from ${status} to ${to}`);
  }
  if (to === "FAILED" && !options.failureReason) throw new Error("A FAILED video needs a failureReason");
  const nowIso = (options.now ?? new Date()).toISOString();
  const expression = newExpression(nowIso);
  assign(expression, "status", to);
  assign(expression, "stage", options.stage ?? null);
  assign(expression, "progressPercent", clampPercent(options.progressPercent ?? (to === "READY" ? 100 : 0)));
  assign(expression, "failureReason", to === "FAILED" ? (options.failureReason ?? null) : null);
  assignChanges(expression, options.set);
  const fromValues = from.map((_, index) => `:from${index}`);
  from.forEach((status, index) => {
    expression.values[`:from${index}`] = status;
  });
  const key = videoKey(creatorId, videoId);
  const indexWrite = isTerminalStatus(to)
    ? { Delete: { TableName: table.tableName, Key: activeVideoKey(videoId) } }
    : {
        Put: {
          TableName: table.tableName,
          Item: activeIndexItem({ creatorId, videoId, status: to, updatedAt: nowIso }),
        },
      };
  try {
    await table.documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table.tableName,
              Key: key,
              ...updateClauses(expression),
              ConditionExpression: `attribute_exists(PK) AND #status IN (${fromValues.join(", ")})`,
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            },
          },
          indexWrite,
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const codes = error.CancellationReasons?.map((reason) => reason.Code) ?? [];
      if (codes[0] === "ConditionalCheckFailed") throw statusConflict(error, from);
    }
    throw translateWriteError(error, "The video changed while it was being updated. Try again.");
  }
  const updated = await findVideoById({ table, creatorId, videoId, consistent: true });
  if (!updated) throw new AppError("not_found", "No such video.");
  return updated;
}

/**
 * UPLOADING → UPLOADED once the stored source has been checked: records what storage says of it
 * (size, type, and the ETag every later read is conditional on, see pinned-source.ts) and lets
 * go of any completion hold. The upload completion and the URL import both end here.
 */
export function markVideoUploaded(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  stored: { sizeBytes: number; contentType: string | null; etag: string | null };
  now?: Date;
}): Promise<Video> {
  const { stored } = options;
  return updateVideoStatus({
    ...options,
    from: ["UPLOADING"],
    to: "UPLOADED",
    stage: "waiting to be checked",
    set: {
      uploadId: null,
      sourceSizeBytes: stored.sizeBytes,
      sourceContentType: stored.contentType,
      sourceEtag: stored.etag,
      completingUntil: null,
      uploadedAt: (options.now ?? new Date()).toISOString(),
    },
  });
}

// Report progress within the current status; refreshes updatedAt on the video and its index item.
export async function updateVideoProgress(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  status: VideoStatus;
  stage?: string | null;
  progressPercent?: number;
  now?: Date;
}): Promise<void> {
  const { table, creatorId, videoId, status } = options;
  if (isTerminalStatus(status)) throw new Error("Progress is only reported while a video is in progress");
  const nowIso = (options.now ?? new Date()).toISOString();
  const expression = newExpression(nowIso);
  if (options.stage !== undefined) assign(expression, "stage", options.stage);
  if (options.progressPercent !== undefined)
    assign(expression, "progressPercent", clampPercent(options.progressPercent));
  expression.values[":expectedStatus"] = status;
  expression.names["#status"] = "status";
  try {
    await table.documentClient.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: table.tableName,
              Key: videoKey(creatorId, videoId),
              ...updateClauses(expression),
              ConditionExpression: "attribute_exists(PK) AND #status = :expectedStatus",
              ReturnValuesOnConditionCheckFailure: "ALL_OLD",
            },
          },
          {
            Put: {
              TableName: table.tableName,
              Item: activeIndexItem({ creatorId, videoId, status, updatedAt: nowIso }),
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (error instanceof TransactionCanceledException) {
      const codes = error.CancellationReasons?.map((reason) => reason.Code) ?? [];
      if (codes[0] === "ConditionalCheckFailed") throw statusConflict(error, [status]);
    }
    throw translateWriteError(error, "The video changed while it was being updated. Try again.");
  }
}

// Edit fields other than status; with `expectedVersion`, only if nobody changed the video since.
export async function updateVideo(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  set: VideoChanges;
  expectedVersion?: number;
  now?: Date;
}): Promise<Video> {
  const { table } = options;
  const expression = newExpression((options.now ?? new Date()).toISOString());
  assignChanges(expression, options.set);
  let condition = "attribute_exists(PK)";
  if (options.expectedVersion !== undefined) {
    condition += " AND #version = :expectedVersion";
    expression.values[":expectedVersion"] = options.expectedVersion;
  }
  try {
    const output = await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: videoKey(options.creatorId, options.videoId),
        ...updateClauses(expression),
        ConditionExpression: condition,
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return toVideo(parseStoredItem(VideoItem, output.Attributes));
  } catch (error) {
    const translated = translateWriteError(error, "The video was changed elsewhere. Reload and try again.");
    const old = (error as { Item?: Record<string, unknown> }).Item;
    if (translated instanceof AppError && translated.code === "conflict" && !old)
      throw new AppError("not_found", "No such video.", { cause: error });
    throw translated;
  }
}

/**
 * The creator deleted one of the video's clips: its range is remembered (deletedClipRanges), and
 * while the video is READY it counts one clip fewer, atomically so two deletes at once both
 * count (never below zero). Once a request for other clips has started, its job sets the count
 * from the clips it finds. Nothing when the video is gone.
 */
export async function recordClipDeleted(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  range: { startSeconds: number; endSeconds: number };
  now?: Date;
}): Promise<void> {
  const { table, range } = options;
  const remember = (expression: Expression) => {
    expression.sets.push("#deleted = list_append(if_not_exists(#deleted, :none), :range)");
    expression.names["#deleted"] = "deletedClipRanges";
    expression.values[":none"] = [];
    expression.values[":range"] = [{ startSeconds: range.startSeconds, endSeconds: range.endSeconds }];
    return expression;
  };
  const nowIso = (options.now ?? new Date()).toISOString();
  const counted = remember(newExpression(nowIso));
  counted.sets.push("#clipCount = #clipCount - :one");
  counted.names["#clipCount"] = "clipCount";
  counted.names["#status"] = "status";
  counted.values[":zero"] = 0;
  counted.values[":ready"] = "READY";
  const condition = "attribute_exists(PK) AND #status = :ready AND #clipCount > :zero";
  if (await updateVideoWhere(table, options, counted, condition)) return;
  await updateVideoWhere(table, options, remember(newExpression(nowIso)), "attribute_exists(PK)");
}

/**
 * Takes the completion of an UPLOADING video for `leaseMs` when no other request holds it (or
 * its hold has lapsed). Returns the hold (pass it to releaseVideoCompletion), or null when the
 * video is held by another request, is no longer UPLOADING, or is gone: read it again to know.
 */
export async function claimVideoCompletion(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  leaseMs: number;
  /**
   * For a hold that is not the creator's activity (the sweep's): taken only if the video still
   * has the `updatedAt` it was read with, and left with it, so a hold that is let go unused
   * does not make the upload look recent.
   */
  seenUpdatedAt?: string;
  now?: Date;
}): Promise<string | null> {
  const { table, seenUpdatedAt } = options;
  const now = options.now ?? new Date();
  const until = new Date(now.getTime() + options.leaseMs).toISOString();
  const expression = newExpression(seenUpdatedAt === undefined ? now.toISOString() : null);
  assign(expression, "completingUntil", until);
  expression.names["#status"] = "status";
  expression.values[":uploading"] = "UPLOADING";
  expression.values[":nullType"] = "NULL";
  expression.values[":now"] = now.toISOString();
  const conditions = [
    "attribute_exists(PK)",
    "#status = :uploading",
    "(attribute_not_exists(#completingUntil) OR attribute_type(#completingUntil, :nullType) OR #completingUntil < :now)",
  ];
  if (seenUpdatedAt !== undefined) {
    expression.names["#updatedAt"] = "updatedAt";
    expression.values[":seenUpdatedAt"] = seenUpdatedAt;
    conditions.push("#updatedAt = :seenUpdatedAt");
  }
  return (await updateVideoWhere(table, options, expression, conditions.join(" AND "))) ? until : null;
}

// Let go of a completion hold taken by claimVideoCompletion; a hold since lapsed and taken by another is left alone.
export async function releaseVideoCompletion(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  hold: string;
  /** Leave `updatedAt` as it is (a hold taken with `seenUpdatedAt`). */
  keepUpdatedAt?: boolean;
  now?: Date;
}): Promise<void> {
  const { table } = options;
  const expression = newExpression(options.keepUpdatedAt ? null : (options.now ?? new Date()).toISOString());
  assign(expression, "completingUntil", null);
  expression.values[":hold"] = options.hold;
  // Not where it was let go already (the status change clears it), or lapsed and taken by another.
  await updateVideoWhere(table, options, expression, "attribute_exists(PK) AND #completingUntil = :hold");
}

export type PipelineHoldOutcome =
  | { kind: "held" }
  /** Another run holds the video until `heldUntil`. */
  | { kind: "held-elsewhere"; heldUntil: string }
  /** The video is gone, or no longer ANALYZING or RENDERING. */
  | { kind: "not-in-progress" };

/** When a pipeline hold taken or renewed now for `holdMs` lapses (ISO time). */
export function pipelineHoldEnd(holdMs: number, now = new Date()): string {
  return new Date(now.getTime() + holdMs).toISOString();
}

/**
 * Takes, or renews, run `runId`'s hold on an ANALYZING or RENDERING video's pipeline for
 * `holdMs`: where no other run holds it, or that run's hold has lapsed (its worker died). The
 * hold is bookkeeping, not a change: it leaves `version` and `updatedAt` (by which the sweep
 * tells a stalled video) as they are.
 */
export async function holdVideoPipeline(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  runId: string;
  holdMs: number;
  now?: Date;
}): Promise<PipelineHoldOutcome> {
  const { table, creatorId, videoId, runId } = options;
  const now = options.now ?? new Date();
  try {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: videoKey(creatorId, videoId),
        UpdateExpression: "SET #runId = :runId, #heldUntil = :until",
        ConditionExpression: [
          "attribute_exists(PK)",
          "#status IN (:analyzing, :rendering)",
          "(attribute_not_exists(#heldUntil) OR attribute_type(#heldUntil, :nullType) OR #heldUntil < :now OR #runId = :runId)",
        ].join(" AND "),
        ExpressionAttributeNames: {
          "#runId": "pipelineRunId",
          "#heldUntil": "pipelineHeldUntil",
          "#status": "status",
        },
        ExpressionAttributeValues: {
          ":runId": runId,
          ":until": pipelineHoldEnd(options.holdMs, now),
          ":now": now.toISOString(),
          ":nullType": "NULL",
          ":analyzing": "ANALYZING",
          ":rendering": "RENDERING",
        },
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return { kind: "held" };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    const old = error.Item;
    const status = old?.status?.S;
    const heldUntil = old?.pipelineHeldUntil?.S;
    if (!old || (status !== "ANALYZING" && status !== "RENDERING") || !heldUntil)
      return { kind: "not-in-progress" };
    return { kind: "held-elsewhere", heldUntil };
  }
}

// Let go of run `runId`'s hold on the video's pipeline; a hold since lapsed and taken by another run is left alone.
export async function releaseVideoPipeline(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  runId: string;
}): Promise<void> {
  // Bookkeeping, as the hold was: no version or updatedAt change.
  const expression: Expression = {
    sets: ["#runId = :none", "#heldUntil = :none"],
    names: { "#runId": "pipelineRunId", "#heldUntil": "pipelineHeldUntil" },
    values: { ":none": null, ":runId": options.runId },
  };
  await updateVideoWhere(options.table, options, expression, "attribute_exists(PK) AND #runId = :runId");
}

// Record one part of a multipart upload (part number → ETag), for servers without ListParts.
export async function recordUploadPart(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  uploadId: string;
  partNumber: number;
  etag: string;
  now?: Date;
}): Promise<void> {
  const { table } = options;
  try {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: uploadPartsKey(options.creatorId, options.videoId),
        UpdateExpression: "SET #parts.#partNumber = :etag, #lastPartAt = :now",
        ConditionExpression: "attribute_exists(PK) AND #uploadId = :uploadId",
        ExpressionAttributeNames: {
          "#parts": "parts",
          "#partNumber": String(options.partNumber),
          "#uploadId": "uploadId",
          "#lastPartAt": "lastPartAt",
        },
        ExpressionAttributeValues: {
          ":etag": options.etag,
          ":uploadId": options.uploadId,
          ":now": (options.now ?? new Date()).toISOString(),
        },
      }),
    );
  } catch (error) {
    throw translateWriteError(error, "This upload is no longer open.");
  }
}

/**
 * Forgets the parts recorded for a multipart upload, when storage refused them (a part
 * re-sent since, or an ETag it never gave): trusted again, they would be offered as stored on
 * every resume and refused on every completion. The browser then sends every part again.
 */
export async function forgetRecordedUploadParts(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  uploadId: string;
}): Promise<void> {
  const { table } = options;
  try {
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: uploadPartsKey(options.creatorId, options.videoId),
        UpdateExpression: "SET #parts = :none",
        ConditionExpression: "attribute_exists(PK) AND #uploadId = :uploadId",
        ExpressionAttributeNames: { "#parts": "parts", "#uploadId": "uploadId" },
        ExpressionAttributeValues: { ":none": {}, ":uploadId": options.uploadId },
      }),
    );
  } catch (error) {
    // Another upload's record, or none: nothing of this upload's is left to forget.
    if (error instanceof ConditionalCheckFailedException) return;
    throw error;
  }
}

export type RecordedPart = { partNumber: number; etag: string };

// The parts recorded for a multipart upload, by part number (GetItem, consistent).
export async function findRecordedUploadParts(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  uploadId: string;
}): Promise<RecordedPart[]> {
  const item = await getItem({
    table: options.table,
    key: uploadPartsKey(options.creatorId, options.videoId),
    schema: UploadPartsItem,
    consistent: true,
  });
  if (!item || item.uploadId !== options.uploadId) return [];
  return Object.entries(item.parts)
    .map(([partNumber, etag]) => ({ partNumber: Number(partNumber), etag }))
    .filter((part) => Number.isInteger(part.partNumber) && part.partNumber > 0)
    .sort((a, b) => a.partNumber - b.partNumber);
}

// When a part of the video's upload was last reported (GetItem); null when none was.
export async function findLastUploadPartAt(options: {
  table: Table;
  creatorId: string;
  videoId: string;
}): Promise<string | null> {
  const item = await getItem({
    table: options.table,
    key: uploadPartsKey(options.creatorId, options.videoId),
    schema: UploadPartsItem,
    consistent: true,
  });
  return item?.lastPartAt ?? null;
}

// Every entry of one shard of the active-video index (Query on ACTIVE_VIDEO#<shard>, all pages):
// the videos in progress and the videos deleted whose folder is still to be emptied once more.
export async function listVideoIndex(options: {
  table: Table;
  shard: number;
  onStats?: (stats: QueryStats) => void;
}): Promise<{ active: ActiveVideoEntry[]; deleted: DeletedVideoEntry[] }> {
  const items = await queryAllItems({
    ...options,
    pk: activeVideoPk(options.shard),
    schema: VideoIndexItem,
  });
  const active: ActiveVideoEntry[] = [];
  const deleted: DeletedVideoEntry[] = [];
  for (const item of items) {
    if (item.type === "ActiveVideo") {
      const { type: _type, ...entry } = item;
      active.push(entry);
    } else {
      const { type: _type, ...entry } = item;
      deleted.push(entry);
    }
  }
  return { active, deleted };
}

export const ACTIVE_VIDEO_SHARDS = Array.from({ length: ACTIVE_VIDEO_SHARD_COUNT }, (_, shard) => shard);

// Remove an index entry whose video no longer exists (left by an interrupted delete).
export async function deleteActiveVideoEntry(options: { table: Table; videoId: string }): Promise<void> {
  await deleteKeys(options.table, [activeVideoKey(options.videoId)]);
}

/** What finding a video's clips needs: their keys (older items may lack `clipId`). */
const ClipKeyItem = z.object({ SK: z.string(), clipId: z.string().optional() });

// The clip ids of one video (consistent Query on CLIP#clip_<videoUlid>_, keys only).
async function queryVideoClipIds(options: { table: Table; creatorId: string; videoId: string }) {
  const items = await queryAllItems({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "prefix", prefix: clipSkPrefixForVideo(clipIdPrefixForVideo(options.videoId)) },
    schema: ClipKeyItem,
    attributes: ["SK", "clipId"],
    consistent: true,
  });
  return items.map((item) => item.clipId ?? clipIdOfSk(item.SK));
}

// Delete a video's items: clips with their rank items and active-render entries, chapters, upload parts, then the video and its index entry. Repeatable.
export async function deleteVideoItems(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  /** When the last URL signed for the video's upload expires (see DeletedVideoItem). */
  emptyFolderAfter: Date;
  /** Test seam: runs between reading a clip and deleting it (see deleteClip). */
  afterClipRead?: (clip: ClipAsRead) => Promise<void>;
}): Promise<{ deletedItems: number }> {
  const { table, creatorId, videoId } = options;
  // Children first: if this stops half-way, the video item is still there and a retry finds
  // the rest through it. Each clip goes with the rank item of its score at that moment (a
  // render job may re-score it while the video is being deleted), so one at a time.
  let deletedItems = 0;
  for (const clipId of await queryVideoClipIds({ table, creatorId, videoId })) {
    if (await deleteClip({ table, creatorId, clipId, afterRead: options.afterClipRead })) deletedItems += 3;
  }
  const childKeys: Key[] = [chaptersKey(creatorId, videoId), uploadPartsKey(creatorId, videoId)];
  await deleteKeys(table, childKeys);
  await table.documentClient.send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table.tableName, Key: videoKey(creatorId, videoId) } },
        {
          Put: {
            TableName: table.tableName,
            Item: itemOf(activeVideoKey(videoId), "DeletedVideo", {
              creatorId,
              videoId,
              emptyFolderAfter: options.emptyFolderAfter.toISOString(),
            }),
          },
        },
      ],
    }),
  );
  return { deletedItems: deletedItems + childKeys.length + 1 };
}
