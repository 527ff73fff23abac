import "server-only";
import type { Runtime } from "@/server/runtime";
import { presignGet } from "@/storage/presign";
import { findVideoOrThrow } from "./find-video-or-throw";

/**
 * A URL signed now of one of the creator's video thumbnails, or null while the video has none.
 * Lists ask for it when the thumbnail URL they loaded with has expired (it lives 10–15 minutes)
 * before the picture was shown, so it still shows.
 */
export async function getVideoThumbnailUrl(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
}): Promise<{ url: string; expiresAt: string } | null> {
  const { runtime } = options;
  const video = await findVideoOrThrow(options);
  if (!video.thumbnailKey) return null;
  const { url, expiresAt } = await presignGet({
    client: runtime.clients.s3Presigner,
    bucket: runtime.config.aws.bucketName,
    key: video.thumbnailKey,
  });
  return { url, expiresAt };
}
