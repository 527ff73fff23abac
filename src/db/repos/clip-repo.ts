import { TransactionCanceledException } from "@aws-sdk/client-dynamodb";
import { GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { z } from "zod";
import {
  ACTIVE_RENDER_SHARD_COUNT,
  activeRenderKey,
  activeRenderPk,
  CLIP_RANK_SK_END,
  clipKey,
  clipRankKey,
  clipRankSkFrom,
  clipSkPrefixForVideo,
  creatorPk,
  LIST_PREFIXES,
  MAX_SCORE,
  videoKey,
} from "@/db/keys";
import {
  assertItemSize,
  deleteKeys,
  itemOf,
  type Page,
  parseStoredItem,
  type QueryStats,
  queryAllItems,
  queryPage,
  type Table,
  translateWriteError,
} from "@/db/table";
import { LAYOUT_CHOICES, type LayoutChoice } from "@/engine/types";
import { clipIdFor, clipIdPrefixForVideo } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { JOB_CATALOG } from "@/worker/catalog";

/**
 * Clips (`CREATOR#<id>` / `CLIP#<clipId>`) and their rank items
 * (`CREATOR#<id>` / `CLIPRANK#<zero-padded score>#<clipId>`).
 *
 * The rank item stands in for a "clips by score" index: it carries every field a list shows,
 * so "top clips" and "score ≥ N" are one Query on a key range with no further reads. Every
 * write of a clip rewrites its rank item in the same transaction (and, when the score moved,
 * deletes the old one), so the two never disagree. Writes are conditional on the clip's
 * `version`; worker-side updates re-read and retry, creator edits report a conflict.
 *
 * Clip ids are deterministic (`clip_<videoUlid>_<ordinal>`), so a redelivered analysis writes
 * the same keys again: `upsertClipsForVideo` creates what is missing and never duplicates.
 */

export const CLIP_RENDER_STATUSES = ["PENDING", "RENDERING", "READY", "FAILED"] as const;
export const ClipRenderStatus = z.enum(CLIP_RENDER_STATUSES);
export type ClipRenderStatus = z.infer<typeof ClipRenderStatus>;

const score0to100 = z.number().int().min(0).max(MAX_SCORE);

export const ClipSubscoresSchema = z.object({
  hook: score0to100,
  audioEnergy: score0to100,
  visualDynamics: score0to100,
  speech: score0to100,
  chat: score0to100.nullable(),
});

export const ClipReasonSchema = z.object({ atSeconds: z.number().nonnegative(), text: z.string() });

const PlatformCopySchema = z.object({
  title: z.string(),
  description: z.string(),
  hashtags: z.array(z.string()),
});

export const ClipPlatformCopySchema = z
  .object({
    youtube: PlatformCopySchema.optional(),
    tiktok: PlatformCopySchema.optional(),
    twitch: PlatformCopySchema.optional(),
    discord: PlatformCopySchema.optional(),
  })
  .nullable();

/** A finished render: the objects of one revision of the clip's range. */
export const ClipRenderSchema = z.object({
  revision: z.number().int().nonnegative(),
  videoKey: z.string(),
  thumbnailKey: z.string(),
  previewKey: z.string(),
  layout: z.enum(["crop", "fit", "native-vertical", "facecam"]),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  durationSeconds: z.number().nonnegative(),
  /** The range this render shows (the clip's range may since have been edited). */
  startSeconds: z.number().nonnegative(),
  endSeconds: z.number().nonnegative(),
  renderedAt: z.string(),
});
export type ClipRender = z.infer<typeof ClipRenderSchema>;

/** The creator changed the clip's range: it is scored again for what it now holds. */
export function isTrimmed(clip: Pick<ClipSummary, "rangeEditedAt">): boolean {
  return clip.rangeEditedAt !== null;
}

/**
 * The creator changed the clip's range or chose its layout: it is theirs now. A re-run of the
 * analysis leaves it as it is, and a request for other clips keeps it beside the new ones (a
 * layout chosen for one moment would otherwise pass to whichever moment took its place).
 */
export function isEditedByCreator(clip: Pick<ClipSummary, "rangeEditedAt" | "layoutChoice">): boolean {
  return isTrimmed(clip) || clip.layoutChoice !== "auto";
}

/** Every object a render stored: what goes when the render is replaced or its clip removed. */
export function renderObjectKeys(render: ClipRender): string[] {
  return [render.videoKey, render.thumbnailKey, render.previewKey];
}

/** The fields a list shows; the rank item carries exactly these. */
const ClipSummaryFields = z.object({
  clipId: z.string(),
  videoId: z.string(),
  /** The source video's name at analysis time, for lists (display only). */
  videoTitle: z.string(),
  /** Rank within its video's analysis (0 = best); part of the clip id. */
  ordinal: z.number().int().nonnegative(),
  startSeconds: z.number().nonnegative(),
  endSeconds: z.number().nonnegative(),
  score: score0to100,
  subscores: ClipSubscoresSchema,
  reasons: z.array(ClipReasonSchema),
  title: z.string(),
  hookLine: z.string().nullable(),
  /** Bumped by every edit; the render job for a revision only lands if it is still current. */
  revision: z.number().int().nonnegative(),
  /** When the creator last changed the range; a re-run of analysis leaves such clips alone. */
  rangeEditedAt: z.string().nullable(),
  /** The layout the creator asked for (clips stored before the choice existed read as `auto`). */
  layoutChoice: z.enum(LAYOUT_CHOICES).default("auto"),
  /** Render state of the current revision. */
  status: ClipRenderStatus,
  renderFailureReason: z.string().nullable(),
  /** The newest finished render (possibly of an older revision: it stays until a new one is ready). */
  render: ClipRenderSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int().positive(),
});

const ClipItem = ClipSummaryFields.extend({
  type: z.literal("Clip"),
  platformCopy: ClipPlatformCopySchema,
  /**
   * How often a started render of the current revision stopped without finishing (its worker
   * died mid-render, and the sweep queued it again); one that keeps stopping is failed instead
   * (see `requeueClipRender`). A new revision starts again at 0.
   */
  renderStalls: z.number().int().nonnegative().default(0),
});

const ClipRankItem = ClipSummaryFields.extend({ type: z.literal("ClipRank") });

export type Clip = Omit<z.infer<typeof ClipItem>, "type">;
export type ClipSummary = Omit<z.infer<typeof ClipRankItem>, "type">;

/** What analysis decides about a clip (the rest is render state and bookkeeping). */
export type ClipAnalysis = Pick<
  Clip,
  "startSeconds" | "endSeconds" | "score" | "subscores" | "reasons" | "title" | "hookLine" | "platformCopy"
>;

export type MomentForClip = ClipAnalysis & { ordinal: number };

const toClip = (item: z.infer<typeof ClipItem>): Clip => {
  const { type: _type, ...clip } = item;
  return clip;
};

const toSummary = (item: { type: string } & ClipSummary): ClipSummary => {
  const { type: _type, ...rest } = item;
  return parseStoredItem(ClipSummaryFields, rest);
};

export function summaryOf(clip: Clip): ClipSummary {
  const { platformCopy: _platformCopy, renderStalls: _renderStalls, ...summary } = clip;
  return summary;
}

/** Scores arrive as numbers from the engine; the key scheme stores integers 0..100. */
export function normalizeScore(score: number): number {
  return Math.max(0, Math.min(MAX_SCORE, Math.round(score)));
}

function normalizeAnalysis(analysis: ClipAnalysis): ClipAnalysis {
  const subscore = (value: number) => normalizeScore(value);
  return {
    startSeconds: analysis.startSeconds,
    endSeconds: analysis.endSeconds,
    score: normalizeScore(analysis.score),
    subscores: {
      hook: subscore(analysis.subscores.hook),
      audioEnergy: subscore(analysis.subscores.audioEnergy),
      visualDynamics: subscore(analysis.subscores.visualDynamics),
      speech: subscore(analysis.subscores.speech),
      chat: analysis.subscores.chat === null ? null : subscore(analysis.subscores.chat),
    },
    reasons: analysis.reasons,
    title: analysis.title,
    hookLine: analysis.hookLine,
    platformCopy: analysis.platformCopy,
  };
}

// ── Reads ──────────────────────────────────────────────────────────────────────────────────

// One clip of a creator (GetItem). Another creator's clip id is not in this partition: undefined.
export async function findClipById(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  consistent?: boolean;
}): Promise<Clip | undefined> {
  const { table } = options;
  const output = await table.documentClient.send(
    new GetCommand({
      TableName: table.tableName,
      Key: clipKey(options.creatorId, options.clipId),
      ConsistentRead: options.consistent,
    }),
  );
  return output.Item ? toClip(parseStoredItem(ClipItem, output.Item)) : undefined;
}

// A creator's clips, newest video first (one Query on CLIP#, descending, opaque cursor).
export async function listClipsNewestFirst(options: {
  table: Table;
  creatorId: string;
  limit: number;
  cursor?: string | null;
  onStats?: (stats: QueryStats) => void;
}): Promise<Page<ClipSummary>> {
  const page = await queryPage({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "prefix", prefix: LIST_PREFIXES.clips },
    list: "clips",
    limit: options.limit,
    cursor: options.cursor,
    newestFirst: true,
    schema: ClipItem,
    onStats: options.onStats,
  });
  return { items: page.items.map((item) => summaryOf(toClip(item))), nextCursor: page.nextCursor };
}

// A creator's clips by score, highest first, optionally only score ≥ minScore (one Query on a CLIPRANK# key range).
export async function listClipsByScore(options: {
  table: Table;
  creatorId: string;
  minScore?: number;
  limit: number;
  cursor?: string | null;
  onStats?: (stats: QueryStats) => void;
}): Promise<Page<ClipSummary>> {
  const minScore = options.minScore ?? 0;
  const page = await queryPage({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "between", from: clipRankSkFrom(minScore), to: CLIP_RANK_SK_END },
    // The cursor names the threshold too: a cursor taken with minScore 80 is refused for 50.
    list: `clipRanks:${minScore}`,
    limit: options.limit,
    cursor: options.cursor,
    newestFirst: true,
    schema: ClipRankItem,
    onStats: options.onStats,
  });
  return { items: page.items.map(toSummary), nextCursor: page.nextCursor };
}

// The clips of one video, best first (one Query on the clip-id prefix `CLIP#clip_<videoUlid>_`).
export async function listClipsByVideo(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  consistent?: boolean;
  onStats?: (stats: QueryStats) => void;
}): Promise<Clip[]> {
  // At most 100 clips per video (two-digit ordinals): one page in practice.
  const items = await queryAllItems({
    table: options.table,
    pk: creatorPk(options.creatorId),
    range: { kind: "prefix", prefix: clipSkPrefixForVideo(clipIdPrefixForVideo(options.videoId)) },
    schema: ClipItem,
    consistent: options.consistent,
    onStats: options.onStats,
  });
  // Clip ids end in the ordinal, so key order is already rank order.
  return items.map(toClip);
}

// ── Writes ─────────────────────────────────────────────────────────────────────────────────

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>;

function clipItemOf(creatorId: string, clip: Clip) {
  const item = itemOf(clipKey(creatorId, clip.clipId), "Clip", clip);
  assertItemSize(item, "clip");
  return item;
}

function rankItemOf(creatorId: string, clip: Clip) {
  return itemOf(clipRankKey(creatorId, clip.score, clip.clipId), "ClipRank", summaryOf(clip));
}

/**
 * The transaction that replaces `before` with `after`: the clip (conditional on the version it
 * was read at, or on not existing yet), its rank item, and the old rank item if the score moved.
 */
function replaceClipItems(
  table: Table,
  creatorId: string,
  before: Clip | undefined,
  after: Clip,
): TransactItems {
  const items: TransactItems = [
    {
      Put: {
        TableName: table.tableName,
        Item: clipItemOf(creatorId, after),
        ConditionExpression: before ? "#version = :expectedVersion" : "attribute_not_exists(PK)",
        ExpressionAttributeNames: before ? { "#version": "version" } : undefined,
        ExpressionAttributeValues: before ? { ":expectedVersion": before.version } : undefined,
      },
    },
    { Put: { TableName: table.tableName, Item: rankItemOf(creatorId, after) } },
  ];
  if (before && before.score !== after.score) {
    items.push({
      Delete: { TableName: table.tableName, Key: clipRankKey(creatorId, before.score, before.clipId) },
    });
  }
  if (clipRenderOwed(after)) {
    items.push({ Put: { TableName: table.tableName, Item: activeRenderItemOf(creatorId, after) } });
  } else if (before && clipRenderOwed(before)) {
    items.push({ Delete: { TableName: table.tableName, Key: activeRenderKey(after.clipId) } });
  }
  return items;
}

/** Waiting for or under way: the clip has an entry in the active-render index. */
export const clipRenderOwed = (clip: Pick<Clip, "status">) =>
  clip.status === "PENDING" || clip.status === "RENDERING";

const ActiveRenderItem = z.object({
  type: z.literal("ActiveRender"),
  creatorId: z.string(),
  videoId: z.string(),
  clipId: z.string(),
  revision: z.number().int().nonnegative(),
  status: z.enum(["PENDING", "RENDERING"]),
  updatedAt: z.string(),
});
export type ActiveRenderEntry = Omit<z.infer<typeof ActiveRenderItem>, "type">;

function activeRenderItemOf(creatorId: string, clip: Clip) {
  return itemOf(activeRenderKey(clip.clipId), "ActiveRender", {
    creatorId,
    videoId: clip.videoId,
    clipId: clip.clipId,
    revision: clip.revision,
    status: clip.status,
    updatedAt: clip.updatedAt,
  });
}

async function writeClip(
  table: Table,
  creatorId: string,
  before: Clip | undefined,
  after: Clip,
): Promise<void> {
  try {
    await table.documentClient.send(
      new TransactWriteCommand({ TransactItems: replaceClipItems(table, creatorId, before, after) }),
    );
  } catch (error) {
    throw translateWriteError(error, "The clip was changed elsewhere. Reload and try again.");
  }
}

const isConflict = (error: unknown) => error instanceof AppError && error.code === "conflict";

const MAX_WRITE_ATTEMPTS = 5;

/**
 * Read-modify-write of one clip. `change` returns the new clip, or null to leave it alone.
 * Without `expectedVersion` a concurrent write is retried on a fresh read (worker updates);
 * with it, the caller's view is stale and gets a `conflict`.
 */
async function changeClip(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  expectedVersion?: number;
  now?: Date;
  /** The clip changed, null to refuse, or the clip itself when there is nothing to write. */
  change: (clip: Clip, nowIso: string) => Clip | null;
}): Promise<Clip | null> {
  const { table, creatorId, clipId } = options;
  for (let attempt = 1; ; attempt++) {
    const before = await findClipById({ table, creatorId, clipId, consistent: true });
    if (!before) throw new AppError("not_found", "No such clip.");
    if (options.expectedVersion !== undefined && before.version !== options.expectedVersion) {
      throw new AppError("conflict", "The clip was changed elsewhere. Reload and try again.");
    }
    const nowIso = (options.now ?? new Date()).toISOString();
    const changed = options.change(before, nowIso);
    if (!changed) return null;
    // Nothing to write: the version stays, so a creator's edit in flight is not refused for it.
    if (changed === before) return before;
    const after: Clip = { ...changed, version: before.version + 1, updatedAt: nowIso };
    try {
      await writeClip(table, creatorId, before, after);
      return after;
    } catch (error) {
      if (!isConflict(error) || options.expectedVersion !== undefined || attempt >= MAX_WRITE_ATTEMPTS)
        throw error;
    }
  }
}

function sameAnalysis(clip: Clip, analysis: ClipAnalysis): boolean {
  const current: ClipAnalysis = {
    startSeconds: clip.startSeconds,
    endSeconds: clip.endSeconds,
    score: clip.score,
    subscores: clip.subscores,
    reasons: clip.reasons,
    title: clip.title,
    hookLine: clip.hookLine,
    platformCopy: clip.platformCopy,
  };
  return stableJson(current) === stableJson(analysis);
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

export type UpsertClipsResult = {
  clips: Clip[];
  created: number;
  updated: number;
  unchanged: number;
  /** Clips of an earlier analysis of this video with ordinals the new one does not have. */
  removed: Clip[];
};

/**
 * Writes a video's analysed moments as clips (status PENDING), each with its rank item in one
 * transaction. Idempotent: ids are deterministic, an existing clip with the same analysis is
 * left alone (its render state too), one whose analysis differs is updated in place (unless
 * the creator edited it since: isEditedByCreator), and clips of ordinals no longer present are
 * deleted, except those the creator edited: they are the creator's now, and stay among the
 * clips returned (see momentsBesideEditedClips for the moments placed beside them).
 */
export async function upsertClipsForVideo(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  videoTitle: string;
  moments: MomentForClip[];
  now?: Date;
}): Promise<UpsertClipsResult> {
  const { table, creatorId, videoId, videoTitle } = options;
  const result: UpsertClipsResult = { clips: [], created: 0, updated: 0, unchanged: 0, removed: [] };
  const ordinals = new Set<number>();
  for (const moment of options.moments) {
    const { ordinal, ...rawAnalysis } = moment;
    if (ordinals.has(ordinal)) throw new Error(`Two moments share ordinal ${ordinal}`);
    ordinals.add(ordinal);
    const clipId = clipIdFor(videoId, ordinal);
    const analysis = normalizeAnalysis(rawAnalysis);
    const existing = await findClipById({ table, creatorId, clipId, consistent: true });
    if (!existing) {
      const nowIso = (options.now ?? new Date()).toISOString();
      const clip: Clip = {
        clipId,
        videoId,
        videoTitle,
        ordinal,
        ...analysis,
        revision: 0,
        rangeEditedAt: null,
        layoutChoice: "auto",
        status: "PENDING",
        renderFailureReason: null,
        renderStalls: 0,
        render: null,
        createdAt: nowIso,
        updatedAt: nowIso,
        version: 1,
      };
      try {
        await writeClip(table, creatorId, undefined, clip);
        result.clips.push(clip);
        result.created++;
        continue;
      } catch (error) {
        // Another delivery of the same analysis created it a moment ago: treat as existing.
        if (!isConflict(error)) throw error;
      }
    }
    const updated = await changeClip({
      table,
      creatorId,
      clipId,
      now: options.now,
      change: (clip) => {
        // A creator's edit wins over a re-run of analysis.
        if (sameAnalysis(clip, analysis) || isEditedByCreator(clip)) return null;
        const rangeMoved =
          clip.startSeconds !== analysis.startSeconds || clip.endSeconds !== analysis.endSeconds;
        // A new range needs a new render; the old one stays on show until then.
        return rangeMoved
          ? {
              ...clip,
              ...analysis,
              videoTitle,
              ...nextRevision(clip),
            }
          : { ...clip, ...analysis, videoTitle };
      },
    });
    if (updated) {
      result.clips.push(updated);
      result.updated++;
    } else {
      const current = await findClipById({ table, creatorId, clipId, consistent: true });
      if (!current) throw new AppError("not_found", "The clip disappeared while it was being written.");
      result.clips.push(current);
      result.unchanged++;
    }
  }
  const others = (await listClipsByVideo({ table, creatorId, videoId, consistent: true })).filter(
    (clip) => !ordinals.has(clip.ordinal),
  );
  const stale = others.filter((clip) => !isEditedByCreator(clip));
  for (const clip of stale) await deleteClip({ table, creatorId, clipId: clip.clipId });
  result.clips.push(...others.filter(isEditedByCreator));
  result.removed = stale;
  result.clips.sort((a, b) => a.ordinal - b.ordinal);
  return result;
}

// Mark the current revision's render as started or failed; null when `revision` is no longer current,
// or, to start it, is rendered already: a job that read the clip before another job's render of
// it landed (the video's job beside the clip's own render job) must not render it a second time.
// With `expectedVersion`, only if nobody changed the clip since (a `conflict` otherwise).
export async function setClipRenderStatus(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  revision: number;
  status: Exclude<ClipRenderStatus, "READY">;
  failureReason?: string;
  expectedVersion?: number;
  now?: Date;
}): Promise<Clip | null> {
  if (options.status === "FAILED" && !options.failureReason)
    throw new Error("A FAILED render needs a reason");
  return changeClip({
    ...options,
    change: (clip) =>
      clip.revision !== options.revision || (options.status === "RENDERING" && !clipNeedsRender(clip))
        ? null
        : {
            ...clip,
            status: options.status,
            renderFailureReason: options.status === "FAILED" ? (options.failureReason ?? null) : null,
          },
  });
}

/**
 * Store a finished render of `revision` and mark the clip READY. Returns the clip and the
 * render it replaced (whose objects the caller may now delete), or null when a newer range
 * edit made this render stale (the caller should delete the new objects instead).
 */
export async function markClipRendered(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  render: Omit<ClipRender, "renderedAt">;
  now?: Date;
}): Promise<{ clip: Clip; replaced: ClipRender | null } | null> {
  let replaced: ClipRender | null = null;
  const clip = await changeClip({
    ...options,
    change: (current, nowIso) => {
      if (current.revision !== options.render.revision) return null;
      replaced =
        current.render && current.render.videoKey !== options.render.videoKey ? current.render : null;
      return {
        ...current,
        status: "READY",
        renderFailureReason: null,
        render: { ...options.render, renderedAt: nowIso },
      };
    },
  });
  return clip ? { clip, replaced } : null;
}

/**
 * A creator's edit of a clip, its range and layout: bumps the revision and sets the render
 * PENDING (the previous render stays until the new one is ready). With a new score, the rank
 * item moves in the same transaction. `expectedVersion` is the version the edit was based on.
 */
export async function editClip(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  expectedVersion: number;
  startSeconds: number;
  endSeconds: number;
  layoutChoice: LayoutChoice;
  rescored?: Pick<Clip, "score" | "subscores" | "reasons">;
  now?: Date;
}): Promise<Clip> {
  const rescored = options.rescored
    ? normalizeAnalysis({ ...emptyAnalysis(), ...options.rescored })
    : undefined;
  const clip = await changeClip({
    ...options,
    change: (current, nowIso) => {
      const rangeChanged =
        current.startSeconds !== options.startSeconds || current.endSeconds !== options.endSeconds;
      return {
        ...current,
        rangeEditedAt: rangeChanged ? nowIso : current.rangeEditedAt,
        startSeconds: options.startSeconds,
        endSeconds: options.endSeconds,
        layoutChoice: options.layoutChoice,
        ...(rescored
          ? { score: rescored.score, subscores: rescored.subscores, reasons: rescored.reasons }
          : {}),
        ...nextRevision(current),
      };
    },
  });
  if (!clip) throw new Error("An edit always changes the clip");
  return clip;
}

/** A clip's next revision, owed a render (the current render stays on show until then). */
const nextRevision = (clip: Clip) => ({
  revision: clip.revision + 1,
  status: "PENDING" as const,
  renderFailureReason: null,
  renderStalls: 0,
});

/**
 * A new revision of the clip as it stands, for something outside it that changed its render
 * (the video's captions): the render job renders it; the current render stays until then.
 */
export async function renewClipRevision(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  now?: Date;
}): Promise<Clip> {
  const clip = await changeClip({
    ...options,
    change: (current) => ({ ...current, ...nextRevision(current) }),
  });
  if (!clip) throw new Error("A new revision always changes the clip");
  return clip;
}

/**
 * New score, sub-scores and reasons for the clip's current revision (a re-render measured it
 * again), and a new title when given; the rank item moves with the score. Null when `revision`
 * is no longer current. Nothing is written when nothing changes.
 */
export async function updateClipScore(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  revision: number;
  scored: Pick<Clip, "score" | "subscores" | "reasons"> & { title?: string };
  now?: Date;
}): Promise<Clip | null> {
  const scored = normalizeAnalysis({ ...emptyAnalysis(), ...options.scored });
  const readoutOf = ({ score, subscores, reasons, title }: Clip) =>
    stableJson({ score, subscores, reasons, title });
  return changeClip({
    ...options,
    change: (current) => {
      if (current.revision !== options.revision) return null;
      const { score, subscores, reasons } = scored;
      const title = options.scored.title === undefined ? current.title : scored.title;
      const next = { ...current, score, subscores, reasons, title };
      return readoutOf(next) === readoutOf(current) ? current : next;
    },
  });
}

function emptyAnalysis(): ClipAnalysis {
  return {
    startSeconds: 0,
    endSeconds: 0,
    score: 0,
    subscores: { hook: 0, audioEnergy: 0, visualDynamics: 0, speech: 0, chat: null },
    reasons: [],
    title: "",
    hookLine: null,
    platformCopy: null,
  };
}

/** What deleting a clip reads: its score, which names its rank item and guards the delete. */
const ClipDeleteRead = z.object({ score: score0to100 });
export type ClipAsRead = z.infer<typeof ClipDeleteRead> & { clipId: string };

/**
 * Deletes one clip with its current rank item and its active-render entry, in one transaction
 * conditional on the score read (consistently) just before. A re-score landing in between (a
 * render job measures the clip again) moves the rank item, fails the condition, and the delete
 * reads again: deleting the rank item of a score read earlier would leave the new one behind,
 * listing a clip that is gone. The score is the whole condition because every write of a clip
 * moves its rank item in the same transaction, so the clip's score always names the one rank
 * item it has; any other change may land first (its rank item has the same key) or fails its own
 * version condition after (the clip is gone). Repeatable: a clip already gone is nothing to do (false).
 * With `whileVideoReady`, only while that video is READY: a creator's delete must not land in
 * the middle of the job that writes the video's clips. Otherwise a `conflict` naming the video's
 * status, at once (waiting does not change it), or `not_found` when the video is gone.
 */
export async function deleteClip(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  whileVideoReady?: { videoId: string };
  /** Test seam: runs between the read and the delete, where a concurrent write can land. */
  afterRead?: (clip: ClipAsRead) => Promise<void>;
}): Promise<boolean> {
  const { table, creatorId, clipId } = options;
  for (let attempt = 1; ; attempt++) {
    const output = await table.documentClient.send(
      new GetCommand({
        TableName: table.tableName,
        Key: clipKey(creatorId, clipId),
        ConsistentRead: true,
        ProjectionExpression: "#score",
        ExpressionAttributeNames: { "#score": "score" },
      }),
    );
    if (!output.Item) return false;
    const clip: ClipAsRead = { clipId, ...parseStoredItem(ClipDeleteRead, output.Item) };
    await options.afterRead?.(clip);
    const deletes = [
      {
        Delete: {
          TableName: table.tableName,
          Key: clipKey(creatorId, clipId),
          ConditionExpression: "#score = :scoreRead",
          ExpressionAttributeNames: { "#score": "score" },
          ExpressionAttributeValues: { ":scoreRead": clip.score },
        },
      },
      { Delete: { TableName: table.tableName, Key: clipRankKey(creatorId, clip.score, clipId) } },
      { Delete: { TableName: table.tableName, Key: activeRenderKey(clipId) } },
    ];
    const videoCheck = options.whileVideoReady
      ? {
          ConditionCheck: {
            TableName: table.tableName,
            Key: videoKey(creatorId, options.whileVideoReady.videoId),
            ConditionExpression: "#status = :ready",
            ExpressionAttributeNames: { "#status": "status" },
            ExpressionAttributeValues: { ":ready": "READY" },
            ReturnValuesOnConditionCheckFailure: "ALL_OLD" as const,
          },
        }
      : null;
    try {
      await table.documentClient.send(
        new TransactWriteCommand({ TransactItems: videoCheck ? [...deletes, videoCheck] : deletes }),
      );
      return true;
    } catch (error) {
      // The video's check comes after the deletes: its reason is the last.
      const videoReason =
        videoCheck && error instanceof TransactionCanceledException
          ? error.CancellationReasons?.[deletes.length]
          : undefined;
      if (videoReason?.Code === "ConditionalCheckFailed") {
        const status = videoReason.Item?.status?.S;
        if (!status) throw new AppError("not_found", "The clip's video is gone.", { cause: error });
        throw new AppError(
          "conflict",
          `Clips can be deleted once the video is ready; it is ${status.toLowerCase()}.`,
          { cause: error },
        );
      }
      const translated = translateWriteError(error, "The clip kept changing while it was being deleted.");
      if (!isConflict(translated) || attempt >= MAX_WRITE_ATTEMPTS) throw translated;
    }
  }
}

/**
 * The sweep's move for a render whose job was lost: PENDING again (updatedAt moves too, so the
 * next sweep waits another STALE_RENDER_MS). A render that had started counts as a stall; one
 * that never started was only waiting, perhaps behind a long queue, and does not. Conditional
 * on the version the sweep read (a `conflict` when the clip changed since); null when no render
 * is owed.
 */
export async function requeueClipRender(options: {
  table: Table;
  creatorId: string;
  clipId: string;
  expectedVersion: number;
  now?: Date;
}): Promise<Clip | null> {
  return changeClip({
    ...options,
    change: (clip) =>
      clipRenderOwed(clip)
        ? {
            ...clip,
            status: "PENDING",
            renderStalls: clip.renderStalls + (clip.status === "RENDERING" ? 1 : 0),
          }
        : null,
  });
}

/** The active-render index, one shard (one Query, following pages). */
export async function listActiveRenders(options: {
  table: Table;
  shard: number;
  onStats?: (stats: QueryStats) => void;
}): Promise<ActiveRenderEntry[]> {
  const items = await queryAllItems({
    ...options,
    pk: activeRenderPk(options.shard),
    schema: ActiveRenderItem,
  });
  return items.map(({ type: _type, ...entry }) => entry);
}

export const ACTIVE_RENDER_SHARDS = Array.from({ length: ACTIVE_RENDER_SHARD_COUNT }, (_, shard) => shard);

/** Removes an entry whose clip is gone or no longer owed a render (left by an interrupted delete). */
export async function deleteActiveRenderEntry(options: { table: Table; clipId: string }): Promise<void> {
  await deleteKeys(options.table, [activeRenderKey(options.clipId)]);
}

/** Room past the render job's time limit for its abort to land (ffmpeg killed, the attempt ended). */
const RENDER_ABORT_GRACE_MS = 5 * 60_000;

/**
 * A render queued or started this long ago and still not finished has lost its job (a worker
 * stopped mid-job with the embedded, in-memory queue). Nothing refreshes a clip while it renders,
 * so this must outlast the render job's own time limit (the worker aborts it then): a slow but
 * live render is otherwise queued again and rendered twice. Taken from the catalog, so the two
 * cannot drift apart.
 */
export const STALE_RENDER_MS = JOB_CATALOG["render-clip"].timeoutMs + RENDER_ABORT_GRACE_MS;

/** A render worth asking for again: it failed, or has waited or run past STALE_RENDER_MS. */
export function clipRenderStuck(clip: Pick<Clip, "status" | "updatedAt">, nowMs = Date.now()): boolean {
  return (
    clip.status === "FAILED" ||
    ((clip.status === "PENDING" || clip.status === "RENDERING") &&
      nowMs - Date.parse(clip.updatedAt) > STALE_RENDER_MS)
  );
}

/** True while the clip's current revision has no finished render (the job still owes one). */
export function clipNeedsRender(clip: Pick<Clip, "revision" | "status" | "render">): boolean {
  return clip.status !== "READY" || clip.render?.revision !== clip.revision;
}
