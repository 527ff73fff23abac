import "server-only";
import { findClipById } from "@/db/repos/clip-repo";
import { isClipId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { presignGet } from "@/storage/presign";
import { type ClipView, previewTypeOf } from "./to-clip-view";

export type ClipPictureUrls = Pick<
  NonNullable<ClipView["rendered"]>,
  "thumbnailUrl" | "previewUrl" | "previewType"
> & { expiresAt: string };

/**
 * URLs signed now of the thumbnail and animated preview of one of the creator's clips, for a
 * page whose own expired before a picture was shown (lazily on scroll, or on hover). Signed
 * from now, not from the shared window of loaded pages: within a window that would hand back
 * the very URL that just failed.
 */
export async function getClipPictureUrls(options: {
  runtime: Runtime;
  creatorId: string;
  clipId: string;
}): Promise<ClipPictureUrls> {
  const { runtime, creatorId, clipId } = options;
  if (!isClipId(clipId)) throw new AppError("not_found", "No such clip.");
  const clip = await findClipById({ table: tableOf(runtime), creatorId, clipId });
  if (!clip) throw new AppError("not_found", "No such clip.");
  if (!clip.render) throw new AppError("conflict", "This clip has not been rendered yet.");
  const sign = (key: string) =>
    presignGet({ client: runtime.clients.s3Presigner, bucket: runtime.config.aws.bucketName, key });
  const [thumbnail, preview] = await Promise.all([
    sign(clip.render.thumbnailKey),
    sign(clip.render.previewKey),
  ]);
  return {
    thumbnailUrl: thumbnail.url,
    previewUrl: preview.url,
    previewType: previewTypeOf(clip.render.previewKey),
    expiresAt: thumbnail.expiresAt,
  };
}
