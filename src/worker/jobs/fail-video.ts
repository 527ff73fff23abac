import { updateVideoStatus, type Video } from "@/db/repos/video-repo";
import { isGoneOrChanged } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";

/** FAILED with a reason, unless the video has already moved on (or is gone). */
export async function failVideo(
  runtime: Runtime,
  video: Pick<Video, "creatorId" | "videoId">,
  from: readonly Video["status"][],
  reason: string,
): Promise<void> {
  try {
    await updateVideoStatus({
      table: tableOf(runtime),
      creatorId: video.creatorId,
      videoId: video.videoId,
      from,
      to: "FAILED",
      failureReason: reason.slice(0, 500),
    });
  } catch (error) {
    if (isGoneOrChanged(error)) return;
    throw error;
  }
}
