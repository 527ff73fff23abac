import "server-only";
import { AppError } from "@/server/errors";
import type { Runtime } from "@/server/runtime";
import { presignGet } from "@/storage/presign";
import { findVideoOrThrow } from "./find-video-or-throw";

/**
 * A URL signed now of one of the creator's source videos. The video page's player asks for it
 * when the URL it loaded with has expired (it lives 10–15 minutes), so playback can go on.
 */
export async function getVideoSourceUrl(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
}): Promise<{ url: string; expiresAt: string }> {
  const { runtime } = options;
  const video = await findVideoOrThrow(options);
  // From UPLOADED on the source is stored (and kept: clips are re-rendered from it).
  if (video.status === "UPLOADING") throw new AppError("conflict", "The video has not been uploaded yet.");
  const { url, expiresAt } = await presignGet({
    client: runtime.clients.s3Presigner,
    bucket: runtime.config.aws.bucketName,
    key: video.sourceKey,
  });
  return { url, expiresAt };
}
