import type { Creator } from "@/db/repos/creator-repo";
import type { Video } from "@/db/repos/video-repo";
import { sendMail } from "@/mail/send-mail";
import type { Runtime } from "@/server/runtime";
import type { JobLog } from "../job-types";
import { renderVideoOutcomeEmail, type VideoOutcome } from "./video-outcome-email";

/**
 * Tells the creator by email that a video is done (its clips, or why there are none), unless
 * they turned these emails off. Called once, by the job delivery that moved the video to READY
 * or FAILED; a mail server that fails is logged, not retried, and never fails the job: the
 * clips are on the video's page either way.
 */
export async function emailVideoOutcome(options: {
  runtime: Runtime;
  creator: Creator | undefined;
  video: Pick<Video, "videoId" | "filename">;
  outcome: VideoOutcome;
  log: JobLog;
}): Promise<void> {
  const { runtime, creator, video, outcome, log } = options;
  if (!creator?.emailWhenClipsReady) return;
  const { appUrl, mail } = runtime.config;
  const message = renderVideoOutcomeEmail({
    to: creator.email,
    videoName: video.filename,
    outcome,
    videoUrl: `${appUrl}/videos/${encodeURIComponent(video.videoId)}`,
    settingsUrl: `${appUrl}/settings`,
  });
  try {
    const delivery = await sendMail({ mail, message });
    log(`emailed the creator that the video is ${outcome.kind} (${delivery})`);
  } catch (error) {
    log("could not email the creator that the video is done", {
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
