import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findClipById, upsertClipsForVideo } from "@/db/repos/clip-repo";
import { findVideoById, updateVideo, updateVideoStatus } from "@/db/repos/video-repo";
import { createId } from "@/lib/ids";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { MediaProbeError, probeMedia } from "@/media/probe";
import { tableOf } from "@/server/runtime";
import { completeVideoUpload } from "@/server/videos/complete-video-upload";
import { createVideoUpload } from "@/server/videos/create-video-upload";
import { testJobContext } from "@/server/videos/testing/test-job-context";
import { makeTestVideo } from "@/server/videos/testing/test-media";
import { createTestQueue, deleteTestQueue, testQueueName } from "@/server/videos/testing/test-queue";
import { readSignalsArtifact } from "@/storage/analysis-artifacts";
import { headObject } from "@/storage/head-object";
import { presignGet } from "@/storage/presign";
import { testRuntime } from "../../../dev/test/runtime";
import { failureReasonOf } from "../failure-reason";
import { PermanentJobError } from "../job-types";
import { analyzeVideoJob } from "./analyze-video";
import { ingestVideoJob } from "./ingest-video";
import { SOURCE_CHANGED_REASON, sourceRequestHeaders } from "./pinned-source";
import { renderClipJob } from "./render-clip";

/**
 * A single-PUT upload URL stays valid for up to an hour after upload-complete checked the file,
 * but it only creates (If-None-Match: *), so it cannot store another file over it. Should
 * anything else write to the key (a bucket shared with another tool, an operator's copy), the
 * workers must still not read a file that was never checked: the video ends FAILED saying why,
 * once, without retries.
 */

const runtime = testRuntime({ TRUSS_QUEUE_NAME: testQueueName("pinned-source") });
const table = tableOf(runtime);
const bucket = runtime.config.aws.bucketName;
let directory: string;
let videoBytes: Buffer;
let otherBytes: Buffer;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-pinned-"));
  await createTestQueue(runtime);
  await makeTestVideo({ outputPath: path.join(directory, "clip.mp4"), durationSeconds: 3 });
  videoBytes = readFileSync(path.join(directory, "clip.mp4"));
  // Another file of exactly the same size (the upload URL pins the length): the same video
  // with some picture bytes changed, which ffprobe reads as readily.
  otherBytes = Buffer.from(videoBytes);
  const media = otherBytes.indexOf("mdat") + 64;
  for (let index = media; index < media + 32; index++) otherBytes[index] = (otherBytes[index] ?? 0) ^ 0xff;
});

afterAll(async () => {
  await deleteTestQueue(runtime).catch(() => {});
  rmSync(directory, { recursive: true, force: true });
});

async function put(url: string, body: Buffer, headers: Record<string, string>): Promise<number> {
  const response = await fetch(url, { method: "PUT", body: new Uint8Array(body), headers });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Uploads and completes a video. `putAgain` sends other bytes through its still-valid URL;
 * `replaceSource` stores them over the source from the server side.
 */
async function completedUpload(creatorId: string) {
  const { video, upload } = await createVideoUpload({
    runtime,
    creatorId,
    body: { filename: "clip.mp4", contentType: "video/mp4", sizeBytes: videoBytes.length },
  });
  if (upload.kind !== "single") throw new Error("expected a single PUT");
  expect(await put(upload.url, videoBytes, upload.headers)).toBe(200);
  await completeVideoUpload({ runtime, creatorId, videoId: video.id, body: {} });
  const stored = await findVideoById({ table, creatorId, videoId: video.id, consistent: true });
  const sourceKey = stored?.sourceKey ?? "";
  return {
    videoId: video.id,
    sourceKey,
    putAgain: () => put(upload.url, otherBytes, upload.headers),
    replaceSource: async () => {
      await runtime.clients.s3.send(
        new PutObjectCommand({ Bucket: bucket, Key: sourceKey, Body: otherBytes, ContentType: "video/mp4" }),
      );
    },
  };
}

async function expectFailedForChangedSource(creatorId: string, videoId: string) {
  const video = await findVideoById({ table, creatorId, videoId, consistent: true });
  expect(video).toMatchObject({ status: "FAILED", failureReason: SOURCE_CHANGED_REASON });
}

describe("the source the workers read is the one upload-complete checked", () => {
  it("upload-complete records the stored object's ETag", async () => {
    const creatorId = createId("creator");
    const { videoId } = await completedUpload(creatorId);
    const video = await findVideoById({ table, creatorId, videoId, consistent: true });
    const head = await headObject({ s3: runtime.clients.s3, bucket, key: video?.sourceKey ?? "" });
    expect(video?.sourceEtag).toBeTruthy();
    expect(video?.sourceEtag).toBe(head?.etag);
  });

  it("the upload URL cannot store another file over the checked one (412), and the video goes on", async () => {
    const creatorId = createId("creator");
    const { videoId, sourceKey, putAgain } = await completedUpload(creatorId);
    const before = await headObject({ s3: runtime.clients.s3, bucket, key: sourceKey });
    expect(await putAgain()).toBe(412);
    expect(await headObject({ s3: runtime.clients.s3, bucket, key: sourceKey })).toEqual(before);
    const { context } = testJobContext(runtime);
    await ingestVideoJob.run({ creatorId, videoId }, context);
    expect((await findVideoById({ table, creatorId, videoId, consistent: true }))?.status).toBe("QUEUED");
  });

  it("ingest: a file stored over it since ends the video FAILED for good, unread", async () => {
    const creatorId = createId("creator");
    const { videoId, replaceSource } = await completedUpload(creatorId);
    await replaceSource();
    const { context } = testJobContext(runtime);
    const error = await ingestVideoJob
      .run({ creatorId, videoId }, context)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermanentJobError);
    expect(failureReasonOf(error)).toBe(SOURCE_CHANGED_REASON);
    await expectFailedForChangedSource(creatorId, videoId);
    const video = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(video?.probe).toBeNull();
  });

  it("ffprobe over a presigned URL reads only the pinned object", async () => {
    const creatorId = createId("creator");
    const { videoId, replaceSource } = await completedUpload(creatorId);
    const video = await findVideoById({ table, creatorId, videoId, consistent: true });
    if (!video) throw new Error("expected the video");
    const probe = async () => {
      const { url } = await presignGet({ client: runtime.clients.s3, bucket, key: video.sourceKey });
      return probeMedia({
        binaries: resolveMediaBinaries(),
        input: url,
        httpHeaders: sourceRequestHeaders(video),
      });
    };
    expect((await probe()).hasVideo).toBe(true);
    await replaceSource();
    await expect(probe()).rejects.toBeInstanceOf(MediaProbeError);
  });

  it("analysis: a QUEUED video whose file was replaced ends FAILED, with nothing measured", async () => {
    const creatorId = createId("creator");
    const { videoId, replaceSource } = await completedUpload(creatorId);
    const { context } = testJobContext(runtime);
    await ingestVideoJob.run({ creatorId, videoId }, context);
    expect((await findVideoById({ table, creatorId, videoId, consistent: true }))?.status).toBe("QUEUED");
    await replaceSource();

    const error = await analyzeVideoJob
      .run({ creatorId, videoId }, context)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermanentJobError);
    expect(failureReasonOf(error)).toBe(SOURCE_CHANGED_REASON);
    await expectFailedForChangedSource(creatorId, videoId);
    const storage = { s3: runtime.clients.s3, bucket };
    expect(await readSignalsArtifact({ ...storage, creatorId, videoId })).toBeUndefined();
  });

  it("re-render: a clip of a READY video whose file was replaced fails; the video stays READY", async () => {
    const creatorId = createId("creator");
    const { videoId, replaceSource } = await completedUpload(creatorId);
    const { context } = testJobContext(runtime);
    await ingestVideoJob.run({ creatorId, videoId }, context);
    for (const [from, to] of [
      ["QUEUED", "ANALYZING"],
      ["ANALYZING", "READY"],
    ] as const) {
      await updateVideoStatus({ table, creatorId, videoId, from: [from], to });
    }
    const { clips } = await upsertClipsForVideo({
      table,
      creatorId,
      videoId,
      videoTitle: "clip.mp4",
      moments: [
        {
          ordinal: 0,
          startSeconds: 0,
          endSeconds: 2,
          score: 40,
          subscores: { hook: 40, audioEnergy: 40, visualDynamics: 40, speech: 0, chat: null },
          reasons: [],
          title: "Moment 1",
          hookLine: null,
          platformCopy: null,
        },
      ],
    });
    const clip = clips[0]!;
    await replaceSource();

    const payload = { creatorId, videoId, clipId: clip.clipId, revision: clip.revision };
    const error = await renderClipJob.run(payload, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermanentJobError);
    expect((error as Error).message).toBe(SOURCE_CHANGED_REASON);
    expect((await findVideoById({ table, creatorId, videoId, consistent: true }))?.status).toBe("READY");
    // What the consumer does with a PermanentJobError: no retry, the clip FAILED with the reason.
    await renderClipJob.onGiveUp?.(payload, context, failureReasonOf(error));
    const failed = await findClipById({ table, creatorId, clipId: clip.clipId, consistent: true });
    expect(failed).toMatchObject({ status: "FAILED", renderFailureReason: SOURCE_CHANGED_REASON });
  });

  it("a video stored before ETags were recorded is read as it is", async () => {
    const creatorId = createId("creator");
    const { videoId, replaceSource } = await completedUpload(creatorId);
    await updateVideo({ table, creatorId, videoId, set: { sourceEtag: null } });
    await replaceSource();
    await ingestVideoJob.run({ creatorId, videoId }, testJobContext(runtime).context);
    expect((await findVideoById({ table, creatorId, videoId, consistent: true }))?.status).toBe("QUEUED");
  });
});
