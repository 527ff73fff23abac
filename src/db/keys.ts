/**
 * THE key scheme of the one table (see docs/data-model.md). Every PK/SK string and every SK
 * prefix is built here and nowhere else; every item also carries its entity name in `type`.
 *
 * Partitions:
 *   CREATOR#<creatorId>      everything a creator owns (one Query per page)
 *   EMAIL#<normalized>       email → creator lookup (stands in for a GSI)
 *   MAGIC#<tokenHash>        magic-link token (TTL)
 *   SESSION#<tokenHash>      session lookup (TTL)
 *   APITOKEN#<tokenHash>     API token lookup (one GetItem to authenticate)
 *   RATELIMIT#<scope>#<key>  fixed-window counters (TTL)
 *   PLATFORM_ACCOUNT#<platform>#<accountId>  platform account → creator lookup
 *   ACTIVE_VIDEO#<shard>     videos not yet READY/FAILED, and videos deleted within the hour, for the
 *                            sweep (stands in for a GSI)
 *   ACTIVE_RENDER#<shard>    clips whose render is owed (PENDING/RENDERING), for the sweep
 */

export const ENTITY_TYPES = [
  "Creator",
  "EmailLookup",
  "MagicLink",
  "Session",
  "SessionRef",
  "ApiToken",
  "ApiTokenLookup",
  "RateLimitWindow",
  "Video",
  "VideoUploadParts",
  "ActiveVideo",
  "DeletedVideo",
  "ActiveRender",
  "Chapters",
  "Clip",
  "ClipRank",
  "Stream",
  "ChatSpike",
  "DailyAnalytics",
  "PlatformToken",
  "PlatformAccountLookup",
] as const;

export type EntityType = (typeof ENTITY_TYPES)[number];

export type Key = { PK: string; SK: string };

const SEP = "#";

/** Refuses values that would let one key part spill into the next. */
function part(value: string, what: string): string {
  if (value.length === 0 || value.includes(SEP)) {
    throw new Error(`Invalid ${what} for a key: ${JSON.stringify(value)}`);
  }
  return value;
}

// ── Creator partition ──────────────────────────────────────────────────────────────────────

export const creatorPk = (creatorId: string) => `CREATOR${SEP}${part(creatorId, "creatorId")}`;

export const creatorKey = (creatorId: string): Key => ({ PK: creatorPk(creatorId), SK: "METADATA" });

export const emailLookupKey = (normalizedEmail: string): Key => ({
  PK: `EMAIL${SEP}${part(normalizedEmail, "email")}`,
  SK: "CREATOR",
});

// Videos. The starting scheme put chapters at ASSET#<videoId>#CHAPTERS, which sorts between
// video items, so "list videos" would read (and throw away) every chapters item. Chapters
// live under their own prefix instead.
export const VIDEO_SK_PREFIX = `ASSET${SEP}`;
export const videoKey = (creatorId: string, videoId: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${VIDEO_SK_PREFIX}${part(videoId, "videoId")}`,
});

/**
 * The parts a browser reported for a multipart upload (part number → ETag), one item per
 * video. Outside the `ASSET#` range so listing videos never reads it; S3's ListParts is the
 * truth where the server supports it (the embedded S3 server does not).
 */
export const uploadPartsKey = (creatorId: string, videoId: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `UPLOAD_PARTS${SEP}${part(videoId, "videoId")}`,
});

export const CHAPTERS_SK_PREFIX = `CHAPTERS${SEP}`;
export const chaptersKey = (creatorId: string, videoId: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${CHAPTERS_SK_PREFIX}${part(videoId, "videoId")}`,
});

// Clips. A clip id embeds its video's id (`clip_<videoUlid>_<nn>`, see lib/ids.ts), so the
// clips of one video are a contiguous key range and "newest first" is newest video first.
export const CLIP_SK_PREFIX = `CLIP${SEP}`;
export const clipKey = (creatorId: string, clipId: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${CLIP_SK_PREFIX}${part(clipId, "clipId")}`,
});
export const clipSkPrefixForVideo = (clipIdPrefix: string) =>
  `${CLIP_SK_PREFIX}${part(clipIdPrefix, "clipIdPrefix")}`;
/** The clip id inside a clip item's SK (inverse of `clipKey`). */
export const clipIdOfSk = (sk: string): string => {
  if (!sk.startsWith(CLIP_SK_PREFIX)) throw new Error(`Not a clip sort key: ${sk}`);
  return part(sk.slice(CLIP_SK_PREFIX.length), "clipId");
};

// Rank items: "top clips" and "score ≥ N" as key ranges, written in the clip's transaction.
export const CLIP_RANK_SK_PREFIX = `CLIPRANK${SEP}`;
export const MAX_SCORE = 100;
const paddedScore = (score: number) => {
  if (!Number.isInteger(score) || score < 0 || score > MAX_SCORE) {
    throw new Error(`Clip score must be an integer 0–${MAX_SCORE}, got ${score}`);
  }
  return String(score).padStart(3, "0");
};
export const clipRankKey = (creatorId: string, score: number, clipId: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${CLIP_RANK_SK_PREFIX}${paddedScore(score)}${SEP}${part(clipId, "clipId")}`,
});
/** Lower bound (inclusive) for "rank items with score ≥ minScore". */
export const clipRankSkFrom = (minScore: number) => `${CLIP_RANK_SK_PREFIX}${paddedScore(minScore)}${SEP}`;
/** Upper bound past every rank item. `~` sorts after every id character. */
export const CLIP_RANK_SK_END = `${CLIP_RANK_SK_PREFIX}~`;

export const STREAM_SK_PREFIX = `STREAM${SEP}`;
export const streamKey = (creatorId: string, streamId: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${STREAM_SK_PREFIX}${part(streamId, "streamId")}`,
});

// Chat spikes are grouped by stream (the starting scheme's LIVE_CHAT_SPIKE#<timestamp> could
// not list one stream's spikes without reading all of them).
export const CHAT_SPIKE_SK_PREFIX = `LIVE_CHAT_SPIKE${SEP}`;
export const chatSpikeSkPrefixForStream = (streamId: string) =>
  `${CHAT_SPIKE_SK_PREFIX}${part(streamId, "streamId")}${SEP}`;
export const chatSpikeKey = (creatorId: string, streamId: string, isoTimestamp: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${chatSpikeSkPrefixForStream(streamId)}${part(isoTimestamp, "timestamp")}`,
});

export const DAILY_ANALYTICS_SK_PREFIX = `ANALYTICS${SEP}DAILY${SEP}`;
export const dailyAnalyticsKey = (creatorId: string, isoDate: string): Key => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate)) throw new Error(`Invalid date for a key: ${isoDate}`);
  return { PK: creatorPk(creatorId), SK: `${DAILY_ANALYTICS_SK_PREFIX}${isoDate}` };
};

export const PLATFORM_TOKEN_SK_PREFIX = `PLATFORM_TOKEN${SEP}`;
export const platformTokenKey = (creatorId: string, platform: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${PLATFORM_TOKEN_SK_PREFIX}${part(platform, "platform")}`,
});

export const API_TOKEN_SK_PREFIX = `APITOKEN${SEP}`;
export const apiTokenKey = (creatorId: string, tokenId: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${API_TOKEN_SK_PREFIX}${part(tokenId, "tokenId")}`,
});
export const apiTokenLookupKey = (tokenHash: string): Key => ({
  PK: `APITOKEN${SEP}${part(tokenHash, "tokenHash")}`,
  SK: "APITOKEN",
});

/** A creator's own list of sessions, for "sign out everywhere". */
export const SESSION_REF_SK_PREFIX = `SESSION${SEP}`;
export const sessionRefKey = (creatorId: string, tokenHash: string): Key => ({
  PK: creatorPk(creatorId),
  SK: `${SESSION_REF_SK_PREFIX}${part(tokenHash, "tokenHash")}`,
});

// ── Lookup partitions ──────────────────────────────────────────────────────────────────────

export const magicLinkKey = (tokenHash: string): Key => ({
  PK: `MAGIC${SEP}${part(tokenHash, "tokenHash")}`,
  SK: "VERIFY",
});

export const sessionKey = (tokenHash: string): Key => ({
  PK: `SESSION${SEP}${part(tokenHash, "tokenHash")}`,
  SK: "SESSION",
});

export const rateLimitKey = (scope: string, subject: string, windowStartMs: number): Key => ({
  PK: `RATELIMIT${SEP}${part(scope, "scope")}${SEP}${part(subject, "subject")}`,
  SK: `WINDOW${SEP}${windowStartMs}`,
});

/**
 * Active-video index: one item per video that is not READY or FAILED, written in the same
 * transaction as every status change of the video and deleted when it ends. Deleting a video
 * puts a `DeletedVideo` item in its place, until its upload URLs have expired: a PUT through
 * one after the delete would store an object nothing refers to, so the sweep empties the
 * video's folder once more then. The sweep reads
 * these few partitions (one Query each) to find abandoned uploads and stuck videos without a
 * Scan. Spread over a fixed number of shards so no single partition takes every status write.
 *   PK ACTIVE_VIDEO#<shard 0..3>   SK <videoId>   { creatorId, videoId, status, updatedAt }
 */
export const ACTIVE_VIDEO_SHARD_COUNT = 4;
export const activeVideoShardOf = (videoId: string): number =>
  indexShardOf(videoId, ACTIVE_VIDEO_SHARD_COUNT);
export const activeVideoPk = (shard: number): string =>
  indexPk("ACTIVE_VIDEO", shard, ACTIVE_VIDEO_SHARD_COUNT);
export const activeVideoKey = (videoId: string): Key => ({
  PK: activeVideoPk(activeVideoShardOf(part(videoId, "videoId"))),
  SK: videoId,
});

/**
 * Active-render index: one item per clip whose current revision is owed a render (PENDING or
 * RENDERING), written in the same transaction as the clip and deleted with the transaction
 * that makes it READY or FAILED. A render job lost with the embedded, in-memory queue (or a
 * request that saved an edit but could not queue it) leaves its clip waiting; the sweep finds
 * such clips here, without a Scan, and queues their render again.
 *   PK ACTIVE_RENDER#<shard 0..3>   SK <clipId>   { creatorId, videoId, clipId, revision, status, updatedAt }
 */
export const ACTIVE_RENDER_SHARD_COUNT = 4;
export const activeRenderShardOf = (clipId: string): number =>
  indexShardOf(clipId, ACTIVE_RENDER_SHARD_COUNT);
export const activeRenderPk = (shard: number): string =>
  indexPk("ACTIVE_RENDER", shard, ACTIVE_RENDER_SHARD_COUNT);
export const activeRenderKey = (clipId: string): Key => ({
  PK: activeRenderPk(activeRenderShardOf(part(clipId, "clipId"))),
  SK: clipId,
});

/** FNV-1a of an id: stable across processes and releases, spreads ULIDs evenly. */
function indexShardOf(id: string, shardCount: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < id.length; index++) {
    hash ^= id.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shardCount;
}

function indexPk(prefix: string, shard: number, shardCount: number): string {
  if (!Number.isInteger(shard) || shard < 0 || shard >= shardCount)
    throw new Error(`${prefix} shard out of range: ${shard}`);
  return `${prefix}${SEP}${shard}`;
}

/**
 * Platform account → creator (stands in for a GSI): a webhook or chat event names the
 * platform's account id, and this one GetItem says whose it is. Written in the same
 * transaction as the creator's PLATFORM_TOKEN item.
 */
export const platformAccountKey = (platform: string, externalAccountId: string): Key => ({
  PK: `PLATFORM_ACCOUNT${SEP}${part(platform, "platform")}${SEP}${part(externalAccountId, "externalAccountId")}`,
  SK: "CREATOR",
});

/** The SK prefixes of list pages; cursors are bound to one of these. */
export const LIST_PREFIXES = {
  videos: VIDEO_SK_PREFIX,
  clips: CLIP_SK_PREFIX,
  clipRanks: CLIP_RANK_SK_PREFIX,
  streams: STREAM_SK_PREFIX,
  chatSpikes: CHAT_SPIKE_SK_PREFIX,
  dailyAnalytics: DAILY_ANALYTICS_SK_PREFIX,
  apiTokens: API_TOKEN_SK_PREFIX,
  platformTokens: PLATFORM_TOKEN_SK_PREFIX,
  sessions: SESSION_REF_SK_PREFIX,
} as const;
