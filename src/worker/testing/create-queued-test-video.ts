import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createVideo, updateVideoStatus, type Video } from "@/db/repos/video-repo";
import type { Table } from "@/db/table";
import { singleUploadVideo } from "@/db/testing/single-upload-video";
import type { ClipOptions } from "@/engine/clip-options";
import { encodeTestVideo } from "@/engine/testing/encode-test-video";
import {
  generateSyntheticVideo,
  type PlantedEvent,
  planSyntheticVideo,
} from "@/engine/testing/synthetic-video";
import type { MediaProbe } from "@/engine/types";
import { createId } from "@/lib/ids";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { type Runtime, tableOf } from "@/server/runtime";
import { headObject } from "@/storage/head-object";
import { uploadFile } from "@/storage/object-io";
import { sourceObjectKey } from "@/storage/object-keys";

/**
 * For tests of ingest: a video item in UPLOADED — the state upload-complete leaves a video in —
 * as if its source had been uploaded in one PUT to its source key (storing the object is the
 * caller's part; see storeUploadedVideo).
 */
export async function recordUploadedVideo(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  filename: string;
  sizeBytes: number | null;
  /** The stored object's ETag, as upload-complete records it (the workers read only that object). */
  sourceEtag?: string | null;
  clipOptions?: ClipOptions;
}): Promise<Video> {
  const { table, creatorId, videoId } = options;
  await createVideo({
    table,
    video: singleUploadVideo(creatorId, {
      videoId,
      filename: options.filename,
      declaredSizeBytes: options.sizeBytes,
      clipOptions: options.clipOptions,
    }),
  });
  return updateVideoStatus({
    table,
    creatorId,
    videoId,
    from: ["UPLOADING"],
    to: "UPLOADED",
    set: { sourceEtag: options.sourceEtag ?? null },
  });
}

/**
 * For tests and benches of the pipeline: a video item brought to QUEUED with its probe — the
 * state ingest leaves a video in — as if its source had been uploaded in one PUT to its
 * source key (storing the object is the caller's part; see storeQueuedVideo).
 */
export async function recordQueuedVideo(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  filename: string;
  probe: MediaProbe;
  /** The stored object's ETag, as upload-complete records it (the workers read only that object). */
  sourceEtag?: string | null;
  clipOptions?: ClipOptions;
}): Promise<Video> {
  const { table, creatorId, videoId, probe } = options;
  await recordUploadedVideo({ ...options, sizeBytes: probe.sizeBytes });
  return updateVideoStatus({
    table,
    creatorId,
    videoId,
    from: ["UPLOADED"],
    to: "QUEUED",
    set: { probe, sourceSizeBytes: probe.sizeBytes, sourceContentType: "video/mp4" },
  });
}

/**
 * Takes a QUEUED video through the pipeline's statuses to READY, as a finished job leaves it
 * (`set` goes with the last move), for tests of what happens to ready videos.
 */
export async function recordVideoReady(options: {
  table: Table;
  video: Pick<Video, "creatorId" | "videoId">;
  set?: Parameters<typeof updateVideoStatus>[0]["set"];
}): Promise<Video> {
  const { table, video, set } = options;
  const { creatorId, videoId } = video;
  await updateVideoStatus({ table, creatorId, videoId, from: ["QUEUED"], to: "ANALYZING" });
  await updateVideoStatus({ table, creatorId, videoId, from: ["ANALYZING"], to: "RENDERING" });
  return updateVideoStatus({ table, creatorId, videoId, from: ["RENDERING"], to: "READY", set });
}

/** Stores a local file as a new video's source in the bucket: its ids, key and ETag. */
async function storeSource(runtime: Runtime, filePath: string, creatorId = createId("creator")) {
  const videoId = createId("video");
  const storage = { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName };
  const key = sourceObjectKey(creatorId, videoId);
  await uploadFile({ ...storage, key, filePath, contentType: "video/mp4" });
  const head = await headObject({ ...storage, key });
  return { creatorId, videoId, sourceEtag: head?.etag, sizeBytes: head?.sizeBytes ?? 0 };
}

/** Stores a local file as a new video's source in the bucket and records the video UPLOADED. */
export async function storeUploadedVideo(options: { runtime: Runtime; filePath: string }): Promise<Video> {
  const stored = await storeSource(options.runtime, options.filePath);
  return recordUploadedVideo({
    table: tableOf(options.runtime),
    ...stored,
    filename: path.basename(options.filePath),
  });
}

/** Stores a local MP4 as a new video's source in the bucket and records the video QUEUED. */
export async function storeQueuedVideo(options: {
  runtime: Runtime;
  creatorId?: string;
  filePath: string;
  clipOptions?: ClipOptions;
}): Promise<Video> {
  const { runtime, filePath } = options;
  const probe = await probeMedia({ binaries: resolveMediaBinaries(), input: filePath });
  const { creatorId, videoId, sourceEtag } = await storeSource(runtime, filePath, options.creatorId);
  return recordQueuedVideo({
    table: tableOf(runtime),
    creatorId,
    videoId,
    filename: path.basename(filePath),
    probe,
    sourceEtag,
    clipOptions: options.clipOptions,
  });
}

/**
 * For tests of the pipeline: a short, low-resolution synthetic video with planted events,
 * stored as a video's source in the bucket, and its video item in QUEUED with its probe.
 */
export async function createQueuedTestVideo(options: {
  runtime: Runtime;
  creatorId?: string;
  durationSeconds?: number;
  /**
   * Stored as a recorder's capture: MPEG-TS, its clock starting at one hour, a keyframe every
   * 3 s (live streams use 2–4 s) and none at the scene changes.
   */
  asStreamCapture?: boolean;
  clipOptions?: ClipOptions;
}): Promise<{ video: Video; events: PlantedEvent[] }> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), "truss-test-video-"));
  try {
    const plan = planSyntheticVideo({
      durationSeconds: options.durationSeconds ?? 60,
      firstEventSeconds: 10,
    });
    const generated = await generateSyntheticVideo({
      binaries: resolveMediaBinaries(),
      plan,
      outputPath: path.join(workDir, "planted-events.mp4"),
      width: 320,
      height: 180,
    });
    let filePath = generated.path;
    if (options.asStreamCapture) {
      filePath = path.join(workDir, "planted-events.ts");
      await encodeTestVideo({
        binaries: resolveMediaBinaries(),
        inputArgs: ["-i", generated.path],
        outputArgs: ["-c:a", "copy", "-g", "90", "-sc_threshold", "0", "-output_ts_offset", "3600"],
        outputPath: filePath,
      });
    }
    const video = await storeQueuedVideo({
      runtime: options.runtime,
      creatorId: options.creatorId,
      filePath,
      clipOptions: options.clipOptions,
    });
    return { video, events: generated.events };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
