import { findVideoById, type Video } from "@/db/repos/video-repo";
import { isId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";

/**
 * The caller's video or 404. The key is built from the caller's own creator id, so another
 * creator's video is simply not found (never 403, which would confirm it exists).
 */
export async function findVideoOrThrow(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
  consistent?: boolean;
}): Promise<Video> {
  const notFound = () => new AppError("not_found", "No such video.");
  if (!isId("video", options.videoId)) throw notFound();
  const video = await findVideoById({
    table: tableOf(options.runtime),
    creatorId: options.creatorId,
    videoId: options.videoId,
    consistent: options.consistent,
  });
  if (!video) throw notFound();
  return video;
}
