import "server-only";
import { type Clip, type ClipSummary, clipRenderStuck, isEditedByCreator } from "@/db/repos/clip-repo";
import type { LayoutChoice, RenderLayout } from "@/engine/types";
import type { Runtime } from "@/server/runtime";
import { presignMediaUrl } from "@/storage/presign-media-url";

/**
 * A clip as the API and the pages show it: scores and reasons, the render state of its
 * current range, and short-lived URLs for the newest finished render's picture and preview.
 */
export type ClipView = {
  clipId: string;
  videoId: string;
  videoTitle: string;
  /** 1 = the video's best clip. */
  rank: number;
  title: string;
  hookLine: string | null;
  score: number;
  subscores: Clip["subscores"];
  reasons: Clip["reasons"];
  startSeconds: number;
  endSeconds: number;
  durationSeconds: number;
  /** Bumped by every edit. */
  revision: number;
  /**
   * The creator changed the range or chose the layout: the clip stays as they made it when
   * other clips are asked for.
   */
  edited: boolean;
  /** The layout the creator chose; `auto` lets each render decide (`rendered.layout` says what it did). */
  layout: LayoutChoice;
  /** Render state of the current range: PENDING/RENDERING while a (re-)render is owed. */
  status: Clip["status"];
  renderFailureReason: string | null;
  /** The render failed, or has waited or run far longer than renders take: asking again helps. */
  canRenderAgain: boolean;
  /** The newest finished render, possibly of an earlier range (kept until the new one is ready). */
  rendered: {
    revision: number;
    startSeconds: number;
    endSeconds: number;
    durationSeconds: number;
    layout: RenderLayout;
    thumbnailUrl: string;
    previewUrl: string;
    previewType: "image/webp" | "video/mp4";
    urlsExpireAt: string;
  } | null;
  /** Pass back as `expectedVersion` when editing, so a stale page cannot overwrite a newer edit. */
  version: number;
  createdAt: string;
  updatedAt: string;
};

/** A render's animated preview is an MP4 where the renderer cannot write animated WebP. */
export const previewTypeOf = (previewKey: string): NonNullable<ClipView["rendered"]>["previewType"] =>
  previewKey.endsWith(".mp4") ? "video/mp4" : "image/webp";

export async function toClipView(options: { runtime: Runtime; clip: ClipSummary }): Promise<ClipView> {
  const { runtime, clip } = options;
  const presigner = runtime.clients.s3Presigner;
  const bucket = runtime.config.aws.bucketName;
  let rendered: ClipView["rendered"] = null;
  if (clip.render) {
    const [thumbnail, preview] = await Promise.all([
      presignMediaUrl({ presigner, bucket, key: clip.render.thumbnailKey }),
      presignMediaUrl({ presigner, bucket, key: clip.render.previewKey }),
    ]);
    rendered = {
      revision: clip.render.revision,
      startSeconds: clip.render.startSeconds,
      endSeconds: clip.render.endSeconds,
      durationSeconds: clip.render.durationSeconds,
      layout: clip.render.layout,
      thumbnailUrl: thumbnail.url,
      previewUrl: preview.url,
      previewType: previewTypeOf(clip.render.previewKey),
      urlsExpireAt: thumbnail.expiresAt,
    };
  }
  return {
    clipId: clip.clipId,
    videoId: clip.videoId,
    videoTitle: clip.videoTitle,
    rank: clip.ordinal + 1,
    title: clip.title,
    hookLine: clip.hookLine,
    score: clip.score,
    subscores: clip.subscores,
    reasons: clip.reasons,
    startSeconds: clip.startSeconds,
    endSeconds: clip.endSeconds,
    durationSeconds: Math.round((clip.endSeconds - clip.startSeconds) * 100) / 100,
    revision: clip.revision,
    edited: isEditedByCreator(clip),
    layout: clip.layoutChoice,
    status: clip.status,
    renderFailureReason: clip.renderFailureReason,
    canRenderAgain: clipRenderStuck(clip),
    rendered,
    version: clip.version,
    createdAt: clip.createdAt,
    updatedAt: clip.updatedAt,
  };
}
