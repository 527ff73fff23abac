import "server-only";
import type { Clip } from "@/db/repos/clip-repo";
import { findVideoById } from "@/db/repos/video-repo";
import { clipableSeconds, type MediaProbe } from "@/engine/types";
import { type Runtime, tableOf } from "@/server/runtime";
import { presignMediaUrl } from "@/storage/presign-media-url";
import { clipDownloadFilename } from "./clip-download-filename";
import { clipEditLimits } from "./clip-edit-limits";
import { findClipOrThrow } from "./find-clip-or-throw";
import { type ClipView, toClipView } from "./to-clip-view";

export type ClipDetail = ClipView & {
  platformCopy: Clip["platformCopy"];
  /** The source video, for editing the range within it. */
  source: { durationSeconds: number | null };
  /** The lengths a range edit may have. */
  editLimits: { minSeconds: number; maxSeconds: number };
  /** Short-lived URLs of the newest finished render: play inline, or save as a file. */
  media: { videoUrl: string; downloadUrl: string; expiresAt: string } | null;
};

/** One of the creator's clips with short-lived media URLs; another creator's clip is a 404. */
export async function getClip(options: {
  runtime: Runtime;
  creatorId: string;
  clipId: string;
}): Promise<ClipDetail> {
  const { runtime, creatorId } = options;
  const clip = await findClipOrThrow(options);
  const video = await findVideoById({ table: tableOf(runtime), creatorId, videoId: clip.videoId });
  return toClipDetail({ runtime, clip, sourceProbe: video?.probe ?? null });
}

export async function toClipDetail(options: {
  runtime: Runtime;
  clip: Clip;
  /** The source's probe: an edit may span it up to where its picture ends. */
  sourceProbe: MediaProbe | null;
}): Promise<ClipDetail> {
  const { runtime, clip } = options;
  const view = await toClipView({ runtime, clip });
  let media: ClipDetail["media"] = null;
  if (clip.render) {
    const presigner = runtime.clients.s3Presigner;
    const bucket = runtime.config.aws.bucketName;
    const [inline, download] = await Promise.all([
      presignMediaUrl({ presigner, bucket, key: clip.render.videoKey }),
      presignMediaUrl({
        presigner,
        bucket,
        key: clip.render.videoKey,
        downloadFilename: clipDownloadFilename(clip, clip.render),
      }),
    ]);
    media = { videoUrl: inline.url, downloadUrl: download.url, expiresAt: inline.expiresAt };
  }
  return {
    ...view,
    platformCopy: clip.platformCopy,
    source: { durationSeconds: options.sourceProbe ? clipableSeconds(options.sourceProbe) : null },
    editLimits: clipEditLimits(),
    media,
  };
}
