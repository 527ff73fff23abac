import "server-only";
import type { Runtime } from "@/server/runtime";
import { findVideoOrThrow } from "./find-video-or-throw";
import { purgeVideo } from "./purge-video";

/**
 * Deletes one of the caller's videos: its upload, objects and items (also cancels an upload in
 * progress). Safe to retry after a failure: the video item goes last, so a retry finds it.
 */
export async function deleteVideo(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
}): Promise<void> {
  const video = await findVideoOrThrow({ ...options, consistent: true });
  await purgeVideo(options.runtime, video);
}
