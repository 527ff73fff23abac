import { findVideoById, updateVideoProgress, updateVideoStatus, type Video } from "@/db/repos/video-repo";
import type { MediaProbe } from "@/engine/types";
import { describeSizeOverLimit } from "@/lib/format-bytes";
import { formatLength } from "@/lib/format-length";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { MediaProbeError, probeMedia } from "@/media/probe";
import { enqueueJob } from "@/queue/enqueue-job";
import { isGoneOrChanged } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { ACCEPTED_FORMATS_TEXT, isAcceptedProbeFormat } from "@/server/videos/accepted-video-formats";
import { headObject } from "@/storage/head-object";
import { ObjectChangedError } from "@/storage/object-changed";
import { presignGet } from "@/storage/presign";
import type { JobHandler, JobLog } from "../job-types";
import { PermanentJobError } from "../job-types";
import { failVideo } from "./fail-video";
import { assertSourceUnchanged, failChangedSource, sourceRequestHeaders } from "./pinned-source";
import { storeSourceFrame } from "./store-source-frame";

/**
 * `ingest-video`: an uploaded (or imported) file is in the bucket. Verify it (HeadObject, and
 * that it is still the object upload-complete checked: pinned-source.ts), probe it with ffprobe
 * over a presigned GET URL, only that object (the worker never downloads it for this),
 * record its metadata, refuse what is not a video we take or is too long (FAILED with a reason
 * a person understands), store a frame of it as its thumbnail for the library (one seek), then
 * move it to QUEUED and queue `analyze-video`.
 *
 * Idempotent: a message for a video past UPLOADED does nothing, with one exception. A QUEUED
 * video's analysis is queued again on a retry of this very message (attempt > 1), whose
 * earlier attempt may have stopped between the QUEUED write and the enqueue (a crash, SQS
 * failing the send). A first delivery finding it QUEUED is a duplicate (a retried complete,
 * the sweep, a parallel delivery): whoever moved it there queued the analysis, and queueing
 * it again would run a second pipeline beside the first (analysis carries on from ANALYZING).
 * Should that enqueue still be lost (the embedded queue is in memory; a crash of the whole
 * stack loses this message too), the sweep re-queues a video QUEUED too long.
 */
export const ingestVideoJob: JobHandler<"ingest-video"> = {
  run: async ({ creatorId, videoId }, context) => {
    await ingestStoredVideo({
      runtime: context.runtime,
      creatorId,
      videoId,
      signal: context.signal,
      log: context.log,
      isRetry: context.attempt > 1,
    });
  },
  onGiveUp: async ({ creatorId, videoId }, context, reason) => {
    await failVideo({
      runtime: context.runtime,
      video: { creatorId, videoId },
      from: ["UPLOADED"],
      reason: `We could not check this file: ${reason}`,
      log: context.log,
    });
  },
};

const PROBE_TIMEOUT_MS = 2 * 60_000;

export async function ingestStoredVideo(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
  signal?: AbortSignal;
  log?: JobLog;
  /** Whether an earlier attempt of the same job may have stopped part-way (see `ingestVideoJob`). */
  isRetry: boolean;
}): Promise<void> {
  const { runtime, creatorId, videoId, signal } = options;
  const log = options.log ?? (() => {});
  const table = tableOf(runtime);
  const video = await findVideoById({ table, creatorId, videoId, consistent: true });
  if (!video) {
    log("video is gone; nothing to ingest", { videoId });
    return;
  }
  if (video.status === "QUEUED") {
    if (options.isRetry) {
      await enqueueJob(runtime, "analyze-video", { creatorId, videoId });
      log("video is QUEUED; queued its analysis again after an earlier attempt", { videoId });
    } else {
      log("video is QUEUED; its analysis is queued already", { videoId });
    }
    return;
  }
  if (video.status !== "UPLOADED") {
    log(`video is ${video.status}; nothing to ingest`, { videoId });
    return;
  }

  await updateVideoProgress({
    table,
    creatorId,
    videoId,
    status: "UPLOADED",
    stage: "checking the file",
    progressPercent: 10,
  });
  const bucket = runtime.config.aws.bucketName;
  const head = await headObject({
    s3: runtime.clients.s3,
    bucket,
    key: video.sourceKey,
    ifMatch: video.sourceEtag,
    signal,
  }).catch((error: unknown) => rejectIfChanged(runtime, video, error, log));
  if (!head) await reject(runtime, video, "The uploaded file is missing from storage. Upload it again.", log);
  const sizeBytes = head?.sizeBytes ?? 0;
  const { maxBytes, maxDurationSeconds } = runtime.config.uploads;
  if (sizeBytes === 0) await reject(runtime, video, "The file is empty.", log);
  if (sizeBytes > maxBytes)
    await reject(runtime, video, describeSizeOverLimit("The file", sizeBytes, maxBytes), log);

  await updateVideoProgress({
    table,
    creatorId,
    videoId,
    status: "UPLOADED",
    stage: "reading the video's details",
    progressPercent: 40,
  });
  // Signed for the worker's own endpoint (`s3`), not the browser's.
  const sourceUrl = await presignGet({ client: runtime.clients.s3, bucket, key: video.sourceKey });
  // Both reads of it (the probe, the frame) carry the ETag upload-complete checked.
  const httpHeaders = sourceRequestHeaders(video);
  const binaries = resolveMediaBinaries({
    ffmpegPath: runtime.config.analysis.ffmpegPath,
    ffprobePath: runtime.config.analysis.ffprobePath,
  });
  let probe: MediaProbe;
  try {
    probe = await probeMedia({
      binaries,
      input: sourceUrl.url,
      httpHeaders,
      timeoutMs: PROBE_TIMEOUT_MS,
      signal,
    });
  } catch (error) {
    if (error instanceof MediaProbeError) {
      // A file replaced since it was checked answers ffprobe's If-Match with 412, which reads
      // as "unreachable": ask storage which it was.
      if (!signal?.aborted) {
        await assertSourceUnchanged(runtime, video, signal).catch((headError: unknown) =>
          rejectIfChanged(runtime, video, headError, log),
        );
      }
      // The file is what it is: no retry reads it differently. Network trouble may pass.
      if (error.mayPass) throw error;
      await reject(runtime, video, error.message, log);
    }
    throw error;
  }
  if (!isAcceptedProbeFormat(probe.formatName)) {
    await reject(
      runtime,
      video,
      `This file is in a format we do not take (${probe.formatName}). Upload ${ACCEPTED_FORMATS_TEXT} video.`,
      log,
    );
  }
  if (probe.durationSeconds > maxDurationSeconds) {
    await reject(
      runtime,
      video,
      `This video is ${formatLength(probe.durationSeconds)} long; the limit is ${formatLength(maxDurationSeconds)}.`,
      log,
    );
  }

  const thumbnailKey =
    video.thumbnailKey ??
    (await storeSourceFrame({
      runtime,
      video,
      sourceUrl: sourceUrl.url,
      httpHeaders,
      probe,
      ffmpegPath: binaries.ffmpegPath,
      signal,
      log,
    }));

  try {
    await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from: ["UPLOADED"],
      to: "QUEUED",
      stage: "waiting for analysis",
      progressPercent: 0,
      set: { probe, sourceSizeBytes: sizeBytes, thumbnailKey },
    });
  } catch (error) {
    // Deleted, or moved on by a parallel delivery of this job: nothing left to do here.
    if (isGoneOrChanged(error)) {
      log("video changed while ingesting; leaving it", { videoId, reason: error.message });
      return;
    }
    throw error;
  }
  await enqueueJob(runtime, "analyze-video", { creatorId, videoId });
  log("ingested", {
    videoId,
    durationSeconds: probe.durationSeconds,
    width: probe.width,
    height: probe.height,
  });
}

/** A file stored over the one upload-complete checked: FAILED saying so, for good. */
async function rejectIfChanged(runtime: Runtime, video: Video, error: unknown, log: JobLog): Promise<never> {
  if (error instanceof ObjectChangedError) throw await failChangedSource(runtime, video, log);
  throw error;
}

/** Marks the video FAILED with the reason, then stops the job for good. */
async function reject(runtime: Runtime, video: Video, reason: string, log: JobLog): Promise<never> {
  await failVideo({ runtime, video, from: ["UPLOADED"], reason, log });
  throw new PermanentJobError(reason);
}
