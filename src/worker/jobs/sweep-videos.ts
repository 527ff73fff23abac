import {
  ACTIVE_VIDEO_SHARDS,
  type ActiveVideoEntry,
  claimVideoCompletion,
  type DeletedVideoEntry,
  deleteActiveVideoEntry,
  findLastUploadPartAt,
  findVideoById,
  listVideoIndex,
  releaseVideoCompletion,
  updateVideo,
  type Video,
} from "@/db/repos/video-repo";
import { enqueueJob } from "@/queue/enqueue-job";
import { type Runtime, tableOf } from "@/server/runtime";
import { purgeVideo } from "@/server/videos/purge-video";
import { deletePrefix } from "@/storage/delete-prefix";
import { videoObjectPrefix } from "@/storage/object-keys";
import type { JobHandler, JobLog } from "../job-types";
import { failVideo } from "./fail-video";
import { sweepClipRenders } from "./sweep-clip-renders";

/**
 * `sweep-videos` (periodic): reads the active-video index — one Query per shard, only videos
 * that are not READY or FAILED — and
 * - deletes uploads never completed (UPLOADING, untouched for `uploads.abandonAfterHours`):
 *   aborts the multipart upload, deletes the objects and every item;
 * - re-queues videos stuck mid-pipeline (no status or progress change for `STUCK_AFTER_MS`):
 *   an import still UPLOADING → `import-video` (the worker uploads it: nobody abandons it, and
 *   a download reports progress every few seconds, so silence means its job was lost),
 *   UPLOADED → `ingest-video`, QUEUED/ANALYZING/RENDERING → `analyze-video` (stages resume);
 *   a video that stalls while being worked on more than `MAX_REQUEUES` times is FAILED
 *   instead, so a poison video cannot loop forever. QUEUED videos may simply wait behind a long
 *   queue (analysis runs one at a time), so they count as stuck only after
 *   `QUEUED_STUCK_AFTER_MS` and are never failed for it: a re-queued duplicate finds its work
 *   done or in progress;
 * - removes index entries whose video is gone;
 * - empties a deleted video's folder once more when the URLs signed for its upload have expired
 *   (a PUT through one after the delete stored a file nothing refers to), then forgets it.
 * The job then sweeps clip renders (sweep-clip-renders.ts).
 * The index entry is only a hint: each candidate's own item decides. Running it twice is harmless.
 */
export const STUCK_AFTER_MS = 15 * 60_000;
export const QUEUED_STUCK_AFTER_MS = 60 * 60_000;
/** Longer than deleting one abandoned upload's objects and items takes. */
const PURGE_HOLD_MS = 10 * 60_000;
export const MAX_REQUEUES = 5;

export type SweepReport = {
  abandoned: number;
  requeued: number;
  failed: number;
  orphans: number;
  active: number;
  /** Deleted videos' folders emptied again (and the objects found in them). */
  deletedFolders: number;
  lateObjects: number;
};

export const sweepVideosJob: JobHandler<"sweep-videos"> = {
  run: async (_payload, context) => {
    const { runtime, log } = context;
    const videos = await sweepVideos({ runtime, log });
    // Clip renders of READY videos have no video status to stall in: they have their own index.
    const renders = await sweepClipRenders({ runtime, log });
    log("swept", { ...videos, renders });
  },
};

export async function sweepVideos(options: {
  runtime: Runtime;
  log?: JobLog;
  now?: Date;
  stuckAfterMs?: number;
  queuedStuckAfterMs?: number;
}): Promise<SweepReport> {
  const { runtime } = options;
  const log = options.log ?? (() => {});
  const nowMs = (options.now ?? new Date()).getTime();
  const stuckAfterMs = options.stuckAfterMs ?? STUCK_AFTER_MS;
  const queuedStuckAfterMs = Math.max(stuckAfterMs, options.queuedStuckAfterMs ?? QUEUED_STUCK_AFTER_MS);
  const abandonAfterMs = runtime.config.uploads.abandonAfterHours * 3600_000;
  const table = tableOf(runtime);
  const report: SweepReport = {
    abandoned: 0,
    requeued: 0,
    failed: 0,
    orphans: 0,
    active: 0,
    deletedFolders: 0,
    lateObjects: 0,
  };

  const isOlderThan = (iso: string, ageMs: number) => nowMs - Date.parse(iso) > ageMs;
  const entries: ActiveVideoEntry[] = [];
  const deleted: DeletedVideoEntry[] = [];
  for (const shard of ACTIVE_VIDEO_SHARDS) {
    const index = await listVideoIndex({ table, shard });
    entries.push(...index.active);
    deleted.push(...index.deleted);
  }
  report.active = entries.length;

  for (const entry of deleted) {
    if (Date.parse(entry.emptyFolderAfter) > nowMs) continue;
    try {
      const objects = await deletePrefix({
        s3: runtime.clients.s3,
        bucket: runtime.config.aws.bucketName,
        prefix: videoObjectPrefix(entry.creatorId, entry.videoId),
      });
      if (objects > 0)
        log("removed files stored after their video was deleted", { videoId: entry.videoId, objects });
      await deleteActiveVideoEntry({ table, videoId: entry.videoId });
      report.deletedFolders++;
      report.lateObjects += objects;
    } catch (error) {
      log("could not empty a deleted video's folder", { videoId: entry.videoId, error: String(error) });
    }
  }

  const thresholdOf = (video: Pick<Video, "status" | "origin">) =>
    video.status === "UPLOADING" && video.origin === "upload"
      ? abandonAfterMs
      : video.status === "QUEUED"
        ? queuedStuckAfterMs
        : stuckAfterMs;
  for (const entry of entries) {
    // The entry's status is the video's (both change in one transaction); its updatedAt may be
    // older than the video's, never newer, so it is a safe first filter. It does not say whether
    // an UPLOADING video is an import, so the shorter threshold applies to both.
    if (!isOlderThan(entry.updatedAt, thresholdOf({ status: entry.status, origin: "import" }))) continue;
    try {
      const video = await findVideoById({
        table,
        creatorId: entry.creatorId,
        videoId: entry.videoId,
        consistent: true,
      });
      if (!video) {
        await deleteActiveVideoEntry({ table, videoId: entry.videoId });
        report.orphans++;
        continue;
      }
      if (video.status === "UPLOADING" && video.origin === "upload") {
        if (!isOlderThan(video.updatedAt, abandonAfterMs)) continue;
        // A long multipart upload is alive as long as parts keep arriving.
        const lastPartAt = video.uploadId
          ? await findLastUploadPartAt({ table, creatorId: video.creatorId, videoId: video.videoId })
          : null;
        if (lastPartAt && !isOlderThan(lastPartAt, abandonAfterMs)) continue;
        // Taken like a completion, so the two cannot cross: a request completing it now holds
        // it (left alone), and one arriving after waits, then finds the video gone. Only if
        // nothing touched it since the read above; a purge that fails lets go, to be tried at
        // the next sweep.
        const ids = { table, creatorId: video.creatorId, videoId: video.videoId };
        const hold = await claimVideoCompletion({
          ...ids,
          leaseMs: PURGE_HOLD_MS,
          seenUpdatedAt: video.updatedAt,
        });
        if (!hold) continue;
        try {
          await purgeVideo(runtime, video);
        } catch (error) {
          await releaseVideoCompletion({ ...ids, hold, keepUpdatedAt: true }).catch(() => {});
          throw error;
        }
        log("deleted an abandoned upload", { videoId: video.videoId, since: video.updatedAt });
        report.abandoned++;
        continue;
      }
      if (video.status === "READY" || video.status === "FAILED") {
        // The index should already be gone; a crash between writes cannot leave it, but be safe.
        await deleteActiveVideoEntry({ table, videoId: video.videoId });
        report.orphans++;
        continue;
      }
      if (!isOlderThan(video.updatedAt, thresholdOf(video))) continue;
      if (video.status !== "QUEUED" && video.requeueCount >= MAX_REQUEUES) {
        await failVideo({
          runtime,
          video,
          from: [video.status],
          reason: `Processing stalled ${video.requeueCount + 1} times at “${video.stage ?? video.status.toLowerCase()}”; we stopped trying.`,
          log,
        });
        report.failed++;
        continue;
      }
      await requeue(runtime, video);
      log("re-queued a stuck video", {
        videoId: video.videoId,
        status: video.status,
        since: video.updatedAt,
      });
      report.requeued++;
    } catch (error) {
      // One bad video must not stop the sweep of the others.
      log("could not sweep a video", { videoId: entry.videoId, error: String(error) });
    }
  }
  return report;
}

async function requeue(runtime: Runtime, video: Video): Promise<void> {
  const payload = { creatorId: video.creatorId, videoId: video.videoId };
  // A QUEUED video was only waiting its turn, which is no stall: counting it would leave a video
  // that sat behind a long backlog failed at its first real stall. Its updatedAt still moves.
  const stalledWhileWorkedOn = video.status !== "QUEUED";
  // Counted (and updatedAt refreshed) first, with the version we read: two sweeps racing
  // re-queue it once.
  await updateVideo({
    table: tableOf(runtime),
    creatorId: video.creatorId,
    videoId: video.videoId,
    expectedVersion: video.version,
    set: stalledWhileWorkedOn ? { requeueCount: video.requeueCount + 1 } : {},
  });
  if (video.status === "UPLOADING") await enqueueJob(runtime, "import-video", payload);
  else if (video.status === "UPLOADED") await enqueueJob(runtime, "ingest-video", payload);
  else await enqueueJob(runtime, "analyze-video", payload);
}
