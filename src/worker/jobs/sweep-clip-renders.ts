import {
  ACTIVE_RENDER_SHARDS,
  type ActiveRenderEntry,
  clipRenderOwed,
  clipRenderStuck,
  deleteActiveRenderEntry,
  findClipById,
  listActiveRenders,
  requeueClipRender,
  setClipRenderStatus,
} from "@/db/repos/clip-repo";
import { findVideoById } from "@/db/repos/video-repo";
import { enqueueJob } from "@/queue/enqueue-job";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import type { JobLog } from "../job-types";

/**
 * A render that stopped mid-way this many times, and has again, is failed (the page offers
 * "Render again"): it may be what brings its worker down.
 */
export const MAX_RENDER_STALLS = 3;

export type RenderSweepReport = { owed: number; requeued: number; failed: number; cleared: number };

/**
 * Part of the periodic sweep: reads the active-render index — one Query per shard, only clips
 * whose render is owed — and queues again the render of each clip of a READY video that has
 * waited or run past STALE_RENDER_MS (its job was lost: a worker stopped with the embedded,
 * in-memory queue, or an edit was saved but its job could not be sent). The job renders only
 * the revision it names, so a duplicate of a live job costs a check, not a second render.
 * A render still waiting is queued again however often it waits (it may sit behind a long
 * queue); one that started and stopped more than MAX_RENDER_STALLS times is FAILED with the
 * reason.
 *
 * Clips of a video still being processed are its pipeline's (the video sweep re-queues that);
 * entries whose clip is gone or no longer owed a render, or whose video is gone or FAILED, are
 * removed.
 */
export async function sweepClipRenders(options: {
  runtime: Runtime;
  log?: JobLog;
}): Promise<RenderSweepReport> {
  const { runtime } = options;
  const log = options.log ?? (() => {});
  const nowMs = Date.now();
  const table = tableOf(runtime);
  const report: RenderSweepReport = { owed: 0, requeued: 0, failed: 0, cleared: 0 };

  const entries: ActiveRenderEntry[] = [];
  for (const shard of ACTIVE_RENDER_SHARDS) entries.push(...(await listActiveRenders({ table, shard })));
  report.owed = entries.length;

  for (const entry of entries) {
    // The entry's status and updatedAt are the clip's at its last write: a safe first filter.
    if (!clipRenderStuck(entry, nowMs)) continue;
    const { creatorId, clipId } = entry;
    try {
      const clip = await findClipById({ table, creatorId, clipId, consistent: true });
      if (!clip || !clipRenderOwed(clip)) {
        await deleteActiveRenderEntry({ table, clipId });
        report.cleared++;
        continue;
      }
      if (!clipRenderStuck(clip, nowMs)) continue;
      const video = await findVideoById({ table, creatorId, videoId: clip.videoId, consistent: true });
      if (!video || video.status === "FAILED") {
        // No job will render it: kept, the entry would be read again at every sweep. A FAILED
        // video tried again renders its clips in its own pipeline, which writes a new entry.
        await deleteActiveRenderEntry({ table, clipId });
        report.cleared++;
        continue;
      }
      if (video.status !== "READY") continue;
      const revision = clip.revision;
      if (clip.status === "RENDERING" && clip.renderStalls >= MAX_RENDER_STALLS) {
        await setClipRenderStatus({
          table,
          creatorId,
          clipId,
          revision,
          status: "FAILED",
          failureReason: `Rendering stopped before the end ${clip.renderStalls + 1} times; we stopped trying. Render again to retry.`,
        });
        report.failed++;
        continue;
      }
      // Marked first, conditional on the version read: of two sweeps racing, one queues it.
      const requeued = await requeueClipRender({
        table,
        creatorId,
        clipId,
        expectedVersion: clip.version,
      }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === "conflict") return null;
        throw error;
      });
      if (!requeued) continue;
      await enqueueJob(runtime, "render-clip", { creatorId, videoId: clip.videoId, clipId, revision });
      log("re-queued a stalled clip render", { clipId, revision, since: clip.updatedAt });
      report.requeued++;
    } catch (error) {
      // One bad clip must not stop the sweep of the others.
      log("could not sweep a clip render", { clipId, error: String(error) });
    }
  }
  return report;
}
