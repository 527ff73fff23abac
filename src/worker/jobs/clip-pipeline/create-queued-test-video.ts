import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createVideo, updateVideoStatus, type Video } from "@/db/repos/video-repo";
import {
  generateSyntheticVideo,
  type PlantedEvent,
  planSyntheticVideo,
} from "@/engine/testing/synthetic-video";
import { createId } from "@/lib/ids";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { type Runtime, tableOf } from "@/server/runtime";
import { sourceObjectKey } from "@/storage/object-keys";
import { uploadFile } from "./object-io";

/**
 * For tests of the pipeline: a short, low-resolution synthetic video with planted events,
 * stored as a video's source in the bucket, and its video item in QUEUED with its probe —
 * the state ingest leaves a video in.
 */
export async function createQueuedTestVideo(options: {
  runtime: Runtime;
  creatorId?: string;
  durationSeconds?: number;
}): Promise<{ video: Video; events: PlantedEvent[] }> {
  const { runtime } = options;
  const table = tableOf(runtime);
  const creatorId = options.creatorId ?? createId("creator");
  const videoId = createId("video");
  const binaries = resolveMediaBinaries();
  const workDir = await mkdtemp(path.join(os.tmpdir(), "truss-test-video-"));
  try {
    const plan = planSyntheticVideo({
      durationSeconds: options.durationSeconds ?? 60,
      firstEventSeconds: 10,
    });
    const generated = await generateSyntheticVideo({
      binaries,
      plan,
      outputPath: path.join(workDir, "source.mp4"),
      width: 320,
      height: 180,
    });
    const probe = await probeMedia({ binaries, input: generated.path });
    const sourceKey = sourceObjectKey(creatorId, videoId);
    await uploadFile({
      s3: runtime.clients.s3,
      bucket: runtime.config.aws.bucketName,
      key: sourceKey,
      filePath: generated.path,
      contentType: "video/mp4",
    });
    await createVideo({
      table,
      video: {
        creatorId,
        videoId,
        origin: "upload",
        filename: "planted-events.mp4",
        declaredContentType: "video/mp4",
        declaredSizeBytes: probe.sizeBytes,
        importUrl: null,
        sourceKey,
        uploadKind: "single",
        uploadId: null,
        partSizeBytes: null,
        partCount: null,
      },
    });
    await updateVideoStatus({ table, creatorId, videoId, from: ["UPLOADING"], to: "UPLOADED" });
    const video = await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from: ["UPLOADED"],
      to: "QUEUED",
      set: { probe, sourceSizeBytes: probe.sizeBytes, sourceContentType: "video/mp4" },
    });
    return { video, events: generated.events };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
