import { monotonicFactory } from "ulid";

/**
 * Every id is `<prefix>_<ULID>`: the prefix says what it names, the ULID sorts by creation
 * time, so an SK of `CLIP#<clipId>` lists clips oldest→newest and `ScanIndexForward: false`
 * gives newest first for free.
 */
export const ID_PREFIXES = {
  creator: "cr", // creator (user)
  video: "vid", // uploaded or imported video
  stream: "str", // live stream
  job: "job", // queued job
  apiToken: "tok", // personal API token
  session: "ses", // sign-in session
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const CLIP_PREFIX = "clip";

const nextUlid = monotonicFactory();

export function createId(kind: IdKind, timeMs: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${nextUlid(timeMs)}`;
}

const ULID_PATTERN = "[0-9A-HJKMNP-TV-Z]{26}";

/** True when `value` is a well-formed id of `kind` (never trust a client-supplied id). */
export function isId(kind: IdKind, value: string): boolean {
  return new RegExp(`^${ID_PREFIXES[kind]}_${ULID_PATTERN}$`).test(value);
}

/**
 * Clip ids are deterministic: the video's ULID plus the clip's ordinal in that video's
 * analysis. A retried analysis produces the same ids (no duplicate clips), and the clips of
 * one video form one contiguous key range (see db/keys.ts).
 */
export function clipIdFor(videoId: string, ordinal: number): string {
  if (!isId("video", videoId)) throw new Error(`Not a video id: ${videoId}`);
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal > 99)
    throw new Error(`Clip ordinal out of range: ${ordinal}`);
  return `${clipIdPrefixForVideo(videoId)}${String(ordinal).padStart(2, "0")}`;
}

/** The common prefix of every clip id of one video. */
export function clipIdPrefixForVideo(videoId: string): string {
  return `${CLIP_PREFIX}_${videoId.slice(ID_PREFIXES.video.length + 1)}_`;
}

export function isClipId(value: string): boolean {
  return new RegExp(`^${CLIP_PREFIX}_${ULID_PATTERN}_\\d{2}$`).test(value);
}
