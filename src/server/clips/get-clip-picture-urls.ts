import "server-only";
import type { Runtime } from "@/server/runtime";
import { presignGet } from "@/storage/presign";
import { findRenderedClip } from "./get-clip-download-url";
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
  const { runtime } = options;
  const { render } = await findRenderedClip(options);
  const sign = (key: string) =>
    presignGet({ client: runtime.clients.s3Presigner, bucket: runtime.config.aws.bucketName, key });
  const [thumbnail, preview] = await Promise.all([sign(render.thumbnailKey), sign(render.previewKey)]);
  return {
    thumbnailUrl: thumbnail.url,
    previewUrl: preview.url,
    previewType: previewTypeOf(render.previewKey),
    expiresAt: thumbnail.expiresAt,
  };
}
