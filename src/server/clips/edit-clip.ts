import "server-only";
import {
  type Clip,
  clipRenderStuck,
  findClipById,
  requeueClipRender,
  setClipRenderStatus,
  editClip as storeClipEdit,
} from "@/db/repos/clip-repo";
import { findVideoById } from "@/db/repos/video-repo";
import type { Table } from "@/db/table";
import { clipableSeconds, type LayoutChoice, type MediaProbe } from "@/engine/types";
import { enqueueJob } from "@/queue/enqueue-job";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { clipEditLimits } from "./clip-edit-limits";
import { findClipOrThrow } from "./find-clip-or-throw";
import { type ClipDetail, toClipDetail } from "./get-clip";
import { loadScoringInputs, rescoreClip } from "./rescore-clip";

/** Times are kept to the centisecond (as the engine stores them). */
const roundSeconds = (seconds: number) => Math.round(seconds * 100) / 100;

/**
 * A creator's edit of a clip: a new start and/or end, and/or a layout (what is not given stays
 * as it is). Checks the range against the video's duration and the edit limits, stores the
 * edit as a new revision (conditional on `expectedVersion` when given) and queues a re-render.
 * The previous render stays on show until the new one is ready. A new range is scored here, from
 * the video's stored signals (milliseconds), so the answer already describes it; the render job
 * scores it again only if that failed.
 *
 * Sending what the clip already has queues its render again only if that failed or has waited
 * or run past STALE_RENDER_MS ("Render again"), and is otherwise a no-op.
 */
export async function editClip(options: {
  runtime: Runtime;
  creatorId: string;
  clipId: string;
  startSeconds?: number;
  endSeconds?: number;
  layoutChoice?: LayoutChoice;
  expectedVersion?: number;
}): Promise<ClipDetail> {
  const { runtime, creatorId, clipId } = options;
  const table = tableOf(runtime);
  const clip = await findClipOrThrow({ runtime, creatorId, clipId, consistent: true });
  if (options.expectedVersion !== undefined && options.expectedVersion !== clip.version) {
    throw new AppError("conflict", "The clip was changed elsewhere. Reload and try again.");
  }
  const video = await findVideoById({ table, creatorId, videoId: clip.videoId });
  if (!video?.probe) throw new AppError("not_found", "The clip's video is gone.");
  // A clip can only show where the source has a picture (its sound may run on after it).
  const durationSeconds = clipableSeconds(video.probe);
  const where =
    durationSeconds < video.probe.durationSeconds ? "where the video has a picture" : "within the video";

  const startSeconds = roundSeconds(options.startSeconds ?? clip.startSeconds);
  const endSeconds = roundSeconds(options.endSeconds ?? clip.endSeconds);
  const layoutChoice = options.layoutChoice ?? clip.layoutChoice;
  const { minSeconds, maxSeconds } = clipEditLimits();
  const lengthSeconds = roundSeconds(endSeconds - startSeconds);
  if (endSeconds <= startSeconds) {
    throw new AppError("validation_failed", "The clip's end must come after its start.");
  }
  if (startSeconds < 0 || endSeconds > roundSeconds(durationSeconds)) {
    throw new AppError(
      "validation_failed",
      `The clip must lie ${where} (0 to ${roundSeconds(durationSeconds)} s).`,
    );
  }
  if (lengthSeconds < minSeconds || lengthSeconds > maxSeconds) {
    throw new AppError(
      "validation_failed",
      `A clip must be ${minSeconds}–${maxSeconds} s long; this range is ${lengthSeconds} s.`,
    );
  }

  const unchanged =
    startSeconds === clip.startSeconds &&
    endSeconds === clip.endSeconds &&
    layoutChoice === clip.layoutChoice;
  // Asked again for what the clip already has: a PENDING or RENDERING render already has its
  // job, so a repeated PATCH queues nothing. Were that job lost, the periodic sweep
  // (worker/jobs/sweep-clip-renders.ts) queues it again once the render has waited or run past
  // STALE_RENDER_MS. A render that failed or is that stale is what "Render again" asks for: it
  // is queued again.
  const askedAgain = unchanged && clipRenderStuck(clip);
  const edited = !unchanged
    ? await storeClipEdit({
        table,
        creatorId,
        clipId,
        expectedVersion: clip.version,
        startSeconds,
        endSeconds,
        layoutChoice,
      })
    : askedAgain
      ? await markRenderAskedAgain({ table, creatorId, clip })
      : null;
  const rangeChanged = startSeconds !== clip.startSeconds || endSeconds !== clip.endSeconds;
  const updated =
    edited && rangeChanged
      ? await scoreNewRange({ runtime, creatorId, clip: edited, probe: video.probe })
      : edited;
  if (updated) {
    try {
      await enqueueJob(runtime, "render-clip", {
        creatorId,
        videoId: updated.videoId,
        clipId,
        revision: updated.revision,
      });
    } catch (error) {
      // Sending the edit again would queue nothing (the clip is PENDING): the sweep queues it.
      throw new AppError(
        "unavailable",
        "The edit is saved, but its render could not be queued just now. It will be queued automatically within 15 minutes.",
        { cause: error },
      );
    }
  }
  const current =
    updated ?? (askedAgain ? await findClipById({ table, creatorId, clipId, consistent: true }) : clip);
  if (!current) throw new AppError("not_found", "No such clip.");
  return toClipDetail({ runtime, clip: current, sourceProbe: video.probe });
}

/**
 * The edited clip scored for its new range; the clip as it was when that cannot be done now (the
 * stored analysis unreadable): the render job scores it then. A newer edit saved meanwhile
 * scores itself.
 */
async function scoreNewRange(options: {
  runtime: Runtime;
  creatorId: string;
  clip: Clip;
  probe: MediaProbe;
}): Promise<Clip> {
  const { runtime, creatorId, clip } = options;
  try {
    const inputs = await loadScoringInputs({
      s3: runtime.clients.s3,
      bucket: runtime.config.aws.bucketName,
      creatorId,
      videoId: clip.videoId,
    });
    return (
      (await rescoreClip({
        table: tableOf(runtime),
        creatorId,
        clip,
        probe: options.probe,
        inputs,
        weights: runtime.config.analysis.scoringWeights,
      })) ?? clip
    );
  } catch (error) {
    console.warn("[clips] scoring an edited clip failed; its render job scores it", clip.clipId, error);
    return clip;
  }
}

/**
 * Marks a failed or stale render as waiting again (PENDING, with a fresh `updatedAt`), conditional
 * on the version read: of two requests (or a request and the sweep) asking at once, one wins and
 * queues the job; the other gets null and queues nothing.
 */
async function markRenderAskedAgain(options: {
  table: Table;
  creatorId: string;
  clip: Clip;
}): Promise<Clip | null> {
  const { table, creatorId, clip } = options;
  const { clipId, revision, version: expectedVersion } = clip;
  try {
    return clip.status === "FAILED"
      ? await setClipRenderStatus({ table, creatorId, clipId, revision, status: "PENDING", expectedVersion })
      : await requeueClipRender({ table, creatorId, clipId, expectedVersion });
  } catch (error) {
    if (error instanceof AppError && error.code === "conflict") return null;
    throw error;
  }
}
