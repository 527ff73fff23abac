/**
 * Every object key in the bucket is built here, from creator and video (and clip) ids only —
 * never from a file name a person chose — so a key cannot be steered into another creator's
 * space, and everything of one video lives under one prefix that a delete removes.
 *
 *   creators/<creatorId>/videos/<videoId>/source                      the uploaded or imported file
 *   creators/<creatorId>/videos/<videoId>/frame.jpg                   a frame of the source, its thumbnail until clips exist
 *   creators/<creatorId>/videos/<videoId>/thumbnail.jpg               the video's thumbnail (its best clip's)
 *   creators/<creatorId>/videos/<videoId>/analysis/<name>.json        per-stage analysis results
 *   creators/<creatorId>/videos/<videoId>/clips/<clipId>/r<n>.mp4     a clip render (revision n)
 *   creators/<creatorId>/videos/<videoId>/clips/<clipId>/r<n>.jpg     its thumbnail
 *   creators/<creatorId>/videos/<videoId>/clips/<clipId>/r<n>.preview.<webp|mp4>
 *   creators/<creatorId>/videos/<videoId>/captions.<srt|vtt>          subtitles the creator uploaded
 */

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;
const SAFE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

function safeId(value: string, what: string): string {
  if (!SAFE_ID.test(value)) throw new Error(`Invalid ${what} for an object key: ${JSON.stringify(value)}`);
  return value;
}

/** The prefix holding every object of one creator. */
export const creatorObjectPrefix = (creatorId: string) => `creators/${safeId(creatorId, "creatorId")}/`;

/** The prefix holding every object of one video (ends with `/`). */
export const videoObjectPrefix = (creatorId: string, videoId: string) =>
  `${creatorObjectPrefix(creatorId)}videos/${safeId(videoId, "videoId")}/`;

export const sourceObjectKey = (creatorId: string, videoId: string) =>
  `${videoObjectPrefix(creatorId, videoId)}source`;

/** The seekable (Matroska) copy of a source that cannot be cut exactly (see media/seekable-copy.ts). */
export const seekableCopyObjectKey = (creatorId: string, videoId: string) =>
  `${videoObjectPrefix(creatorId, videoId)}seekable-copy.mkv`;

/** A frame of the source, the video's thumbnail from its check until it has clips. */
export const videoSourceFrameObjectKey = (creatorId: string, videoId: string) =>
  `${videoObjectPrefix(creatorId, videoId)}frame.jpg`;

export const videoThumbnailObjectKey = (creatorId: string, videoId: string) =>
  `${videoObjectPrefix(creatorId, videoId)}thumbnail.jpg`;

/** A stage's stored result, e.g. `signals`, `analysis`, `moments`. */
export const analysisObjectKey = (creatorId: string, videoId: string, name: string) => {
  if (!SAFE_NAME.test(name) || name.includes("..")) throw new Error(`Invalid analysis name: ${name}`);
  return `${videoObjectPrefix(creatorId, videoId)}analysis/${name}.json`;
};

export type ClipRenderKind = "video" | "thumbnail" | "preview";

export const clipRenderObjectKey = (options: {
  creatorId: string;
  videoId: string;
  clipId: string;
  revision: number;
  kind: ClipRenderKind;
  /** Only for previews: the animated preview's format. */
  previewExtension?: "webp" | "mp4";
}) => {
  const { revision, kind } = options;
  if (!Number.isInteger(revision) || revision < 0) throw new Error(`Invalid clip revision: ${revision}`);
  const base = `${videoObjectPrefix(options.creatorId, options.videoId)}clips/${safeId(options.clipId, "clipId")}/r${revision}`;
  if (kind === "video") return `${base}.mp4`;
  if (kind === "thumbnail") return `${base}.jpg`;
  return `${base}.preview.${options.previewExtension ?? "webp"}`;
};

export const captionsObjectKey = (creatorId: string, videoId: string, format: "srt" | "vtt") =>
  `${videoObjectPrefix(creatorId, videoId)}captions.${format}`;
