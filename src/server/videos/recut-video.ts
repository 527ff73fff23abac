import "server-only";
import { z } from "zod";
import { updateVideoStatus } from "@/db/repos/video-repo";
import { ClipOptionsChange, changeClipOptions } from "@/engine/clip-options";
import { enqueueJob } from "@/queue/enqueue-job";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { findVideoOrThrow } from "./find-video-or-throw";
import { toVideoView, type VideoView } from "./to-video-view";

export const RecutVideoBody = z.object({ clipOptions: ClipOptionsChange }).strict();

/**
 * Asks a ready video for other clips (how many, how long): the video goes back to QUEUED with
 * its options changed as asked (what the request leaves out stays as it was) and its analysis job runs again. The job finds the stored analysis made for
 * other options, finds the moments again from the stored signals (nothing is decoded again),
 * updates the clips in place, removes those no longer wanted and renders what changed. A clip
 * the creator edited (range or layout) stays, beside the clips found, and the moments of clips
 * they deleted are left out (momentsBesideEditedClips). If this request dies after the status
 * change, the sweep re-queues the video and the same happens.
 */
export async function recutVideo(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
  body: z.infer<typeof RecutVideoBody>;
}): Promise<{ video: VideoView }> {
  const { runtime, creatorId, videoId, body } = options;
  const video = await findVideoOrThrow({ runtime, creatorId, videoId, consistent: true });
  if (video.status !== "READY") {
    throw new AppError(
      "conflict",
      `Other clips can be asked for once the video is ready; it is ${video.status.toLowerCase()}.`,
    );
  }
  // Conditional on READY still: a concurrent change answers 409 with the status it found.
  const queued = await updateVideoStatus({
    table: tableOf(runtime),
    creatorId,
    videoId,
    from: ["READY"],
    to: "QUEUED",
    stage: "waiting for analysis",
    set: { clipOptions: changeClipOptions(video.clipOptions, body.clipOptions) },
  });
  await enqueueJob(runtime, "analyze-video", { creatorId, videoId });
  return { video: await toVideoView(runtime, queued) };
}
