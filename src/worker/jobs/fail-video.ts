import { findCreatorById } from "@/db/repos/creator-repo";
import { updateVideoStatus, type Video } from "@/db/repos/video-repo";
import { isGoneOrChanged } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import type { JobLog } from "../job-types";
import { emailVideoOutcome } from "../notify/email-video-outcome";

/**
 * FAILED with a reason, unless the video has already moved on (or is gone); the creator is
 * emailed why, unless they turned these emails off. Only the call that moved it emails: of two
 * failures racing (a job's own refusal and its give-up after it, a give-up and the sweep), the
 * one that finds the video FAILED already says nothing.
 */
export async function failVideo(options: {
  runtime: Runtime;
  video: Pick<Video, "creatorId" | "videoId">;
  from: readonly Video["status"][];
  reason: string;
  log: JobLog;
}): Promise<void> {
  const { runtime, video, from, reason, log } = options;
  const table = tableOf(runtime);
  const { creatorId, videoId } = video;
  const failureReason = reason.slice(0, 500);
  let failed: Video;
  try {
    failed = await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from,
      to: "FAILED",
      failureReason,
    });
  } catch (error) {
    if (isGoneOrChanged(error)) return;
    throw error;
  }
  // Asked for other clips of a READY video, the creator is on its page; not emailed again.
  if (failed.processedAt !== null) return;
  await emailVideoOutcome({
    runtime,
    creator: await findCreatorById({ table, creatorId }).catch(() => undefined),
    video: failed,
    outcome: { kind: "failed", reason: failureReason },
    log,
  });
}
