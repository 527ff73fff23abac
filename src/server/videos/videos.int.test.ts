import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  activeVideoKey,
  chaptersKey,
  clipKey,
  clipRankKey,
  type Key,
  uploadPartsKey,
  videoKey,
} from "@/db/keys";
import { claimVideoCompletion, findVideoById, updateVideoStatus } from "@/db/repos/video-repo";
import { videoIndexEntryType } from "@/db/testing/video-index-entry";
import { clipIdFor, createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { errorResponse } from "@/server/http/respond";
import { tableOf } from "@/server/runtime";
import { listKeys } from "@/storage/delete-prefix";
import { headObject } from "@/storage/head-object";
import {
  analysisObjectKey,
  clipRenderObjectKey,
  videoObjectPrefix,
  videoSourceFrameObjectKey,
} from "@/storage/object-keys";
import type { JobMessage } from "@/worker/catalog";
import { PermanentJobError } from "@/worker/job-types";
import { ingestVideoJob } from "@/worker/jobs/ingest-video";
import { testRuntime } from "../../../dev/test/runtime";
import { type CompleteVideoUploadBody, completeVideoUpload } from "./complete-video-upload";
import { createVideoUpload } from "./create-video-upload";
import { deleteVideo } from "./delete-video";
import { getVideo } from "./get-video";
import { importVideoFromUrl } from "./import-video-from-url";
import { listVideos } from "./list-videos";
import { recordUploadedPart } from "./record-upload-part";
import { resumeVideoUpload } from "./resume-video-upload";
import { signUploadParts } from "./sign-upload-parts";
import { testJobContext } from "./testing/test-job-context";
import { makeTestAudio, makeTestVideo } from "./testing/test-media";
import { createTestQueue, deleteTestQueue, drainJobs, testQueueName } from "./testing/test-queue";

const MiB = 1024 * 1024;
const runtime = testRuntime({
  TRUSS_QUEUE_NAME: testQueueName("videos"),
  UPLOAD_MULTIPART_THRESHOLD_BYTES: String(5 * MiB),
  UPLOAD_PART_SIZE_BYTES: String(5 * MiB),
  VIDEO_MAX_DURATION_SECONDS: "60",
});
const table = tableOf(runtime);
const bucket = runtime.config.aws.bucketName;
let directory: string;
let videoBytes: Buffer;
let audioBytes: Buffer;
let longVideoBytes: Buffer;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-videos-"));
  await createTestQueue(runtime);
  await makeTestVideo({ outputPath: path.join(directory, "clip.mp4"), durationSeconds: 3 });
  await makeTestAudio({ outputPath: path.join(directory, "song.m4a"), durationSeconds: 2 });
  await makeTestVideo({
    outputPath: path.join(directory, "long.mp4"),
    durationSeconds: 61,
    width: 64,
    height: 36,
    fps: 5,
  });
  videoBytes = readFileSync(path.join(directory, "clip.mp4"));
  audioBytes = readFileSync(path.join(directory, "song.m4a"));
  longVideoBytes = readFileSync(path.join(directory, "long.mp4"));
});

afterAll(async () => {
  await deleteTestQueue(runtime).catch(() => {});
  rmSync(directory, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return error instanceof AppError ? error.code : `error: ${(error as Error).message}`;
  }
}

/** What the browser does with single-PUT instructions. */
async function putBytes(url: string, body: Uint8Array, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: "PUT", body: new Uint8Array(body), headers });
  await response.arrayBuffer();
  return response;
}

async function uploadSmallFile(
  creatorId: string,
  bytes: Buffer,
  filename = "clip.mp4",
  contentType = "video/mp4",
) {
  const { video, upload } = await createVideoUpload({
    runtime,
    creatorId,
    body: { filename, contentType, sizeBytes: bytes.length },
  });
  if (upload.kind !== "single") throw new Error("expected a single PUT");
  expect((await putBytes(upload.url, bytes, upload.headers)).status).toBe(200);
  return video.id;
}

describe("creating an upload", () => {
  it("refuses types, extensions and sizes we do not take, and signs nothing", async () => {
    const creatorId = createId("creator");
    const create = (body: { filename: string; contentType: string; sizeBytes: number }) =>
      codeOf(createVideoUpload({ runtime, creatorId, body }));
    expect(await create({ filename: "a.mp4", contentType: "application/pdf", sizeBytes: 10 })).toBe(
      "unsupported_media_type",
    );
    expect(await create({ filename: "a.avi", contentType: "video/mp4", sizeBytes: 10 })).toBe(
      "unsupported_media_type",
    );
    expect(await create({ filename: "a.mkv", contentType: "video/mp4", sizeBytes: 10 })).toBe(
      "unsupported_media_type",
    );
    expect(
      await create({
        filename: "a.mp4",
        contentType: "video/mp4",
        sizeBytes: runtime.config.uploads.maxBytes + 1,
      }),
    ).toBe("payload_too_large");
    expect((await listVideos({ runtime, creatorId })).videos).toEqual([]);
  });

  it("keys storage by ids, never by the file name", async () => {
    const creatorId = createId("creator");
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "../../other/creators/x.mp4", contentType: "video/mp4", sizeBytes: 100 },
    });
    expect(video.filename).toBe("x.mp4");
    if (upload.kind !== "single") throw new Error("expected single");
    expect(new URL(upload.url).pathname).toBe(`/${bucket}/creators/${creatorId}/videos/${video.id}/source`);
    expect(upload.headers).toEqual({ "content-type": "video/mp4", "if-none-match": "*" });
    expect(Date.parse(upload.expiresAt) - Date.now()).toBeLessThanOrEqual(3600_000);
  });

  it("a PUT with another type or size than declared is refused by the S3 server, and complete finds no file", async () => {
    const creatorId = createId("creator");
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "clip.mp4", contentType: "video/mp4", sizeBytes: videoBytes.length },
    });
    if (upload.kind !== "single") throw new Error("expected single");
    expect((await putBytes(upload.url, videoBytes, { "content-type": "video/webm" })).status).toBe(403);
    expect(
      (await putBytes(upload.url, Buffer.concat([videoBytes, Buffer.from("x")]), upload.headers)).status,
    ).toBe(403);
    expect(await codeOf(completeVideoUpload({ runtime, creatorId, videoId: video.id, body: {} }))).toBe(
      "conflict",
    );
    expect((await findVideoById({ table, creatorId, videoId: video.id }))?.status).toBe("UPLOADING");
  });
});

describe("upload → complete → ingest", () => {
  it("reaches QUEUED with the file's metadata and queues analysis", async () => {
    const creatorId = createId("creator");
    const videoId = await uploadSmallFile(creatorId, videoBytes);
    const completed = await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
    expect(completed.video).toMatchObject({ status: "UPLOADED", sizeBytes: videoBytes.length });
    const jobs = await drainJobs(runtime);
    expect(jobs).toContainEqual(
      expect.objectContaining({ name: "ingest-video", payload: { creatorId, videoId } }),
    );

    // A retried complete is harmless and answers with the video as it is.
    expect((await completeVideoUpload({ runtime, creatorId, videoId, body: {} })).video.status).toBe(
      "UPLOADED",
    );

    const { context } = testJobContext(runtime);
    await ingestVideoJob.run({ creatorId, videoId }, context);
    const { video } = await getVideo({ runtime, creatorId, videoId });
    expect(video.status).toBe("QUEUED");
    expect(video.metadata).toMatchObject({
      width: 320,
      height: 180,
      fps: 30,
      videoCodec: "h264",
      audioCodec: "aac",
      hasAudio: true,
      rotationDegrees: 0,
      dynamicRange: "sdr",
      container: "mov,mp4,m4a,3gp,3g2,mj2",
    });
    expect(video.metadata?.durationSeconds).toBeGreaterThan(2.9);
    expect(video.metadata?.durationSeconds).toBeLessThan(3.2);
    expect(video.metadata?.bitrateBitsPerSecond).toBeGreaterThan(0);
    expect(video).toMatchObject({ chapters: [], clips: [], interestCurve: null });
    // A frame of the file is its picture in the library while it waits for its clips.
    expect((await findVideoById({ table, creatorId, videoId }))?.thumbnailKey).toBe(
      videoSourceFrameObjectKey(creatorId, videoId),
    );
    const frame = await fetch(video.thumbnailUrl!);
    expect(frame.headers.get("content-type")).toBe("image/jpeg");
    expect([...new Uint8Array(await frame.arrayBuffer()).subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect(await drainJobs(runtime)).toContainEqual(
      expect.objectContaining({ name: "analyze-video", payload: { creatorId, videoId } }),
    );

    // Redelivered after a failed attempt: nothing changes but the analysis is queued again, in
    // case that attempt stopped before queueing it.
    const versionBefore = (await findVideoById({ table, creatorId, videoId, consistent: true }))?.version;
    await ingestVideoJob.run({ creatorId, videoId }, testJobContext(runtime, { attempt: 2 }).context);
    expect((await findVideoById({ table, creatorId, videoId, consistent: true }))?.version).toBe(
      versionBefore,
    );
    expect((await drainJobs(runtime)).map((job) => job.name)).toEqual(["analyze-video"]);
  });

  it("a file that is not a video ends FAILED with a reason a person understands", async () => {
    const creatorId = createId("creator");
    const textId = await uploadSmallFile(
      creatorId,
      Buffer.from("this is a text file, not a video\n".repeat(100)),
    );
    const audioId = await uploadSmallFile(creatorId, audioBytes, "song.mp4");
    const { context } = testJobContext(runtime);
    for (const videoId of [textId, audioId]) {
      await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
      await expect(ingestVideoJob.run({ creatorId, videoId }, context)).rejects.toBeInstanceOf(
        PermanentJobError,
      );
    }
    const text = await findVideoById({ table, creatorId, videoId: textId });
    expect(text).toMatchObject({ status: "FAILED" });
    expect(text?.failureReason).toMatch(/not a video we can read/i);
    const audio = await findVideoById({ table, creatorId, videoId: audioId });
    expect(audio?.failureReason).toBe("This file has no video stream (it is audio only).");
    // FAILED videos leave the active index.
    const item = await table.documentClient.send(
      new GetCommand({ TableName: table.tableName, Key: activeVideoKey(textId) }),
    );
    expect(item.Item).toBeUndefined();
  });

  it("a video longer than the limit ends FAILED saying so", async () => {
    const creatorId = createId("creator");
    const videoId = await uploadSmallFile(creatorId, longVideoBytes);
    await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
    const { context } = testJobContext(runtime);
    await expect(ingestVideoJob.run({ creatorId, videoId }, context)).rejects.toThrow(/limit is 1 min/);
    const video = await findVideoById({ table, creatorId, videoId });
    expect(video?.status).toBe("FAILED");
    expect(video?.failureReason).toMatch(/^This video is 1 min( 1 s)? long; the limit is 1 min\.$/);
  });
});

describe("multipart upload", () => {
  const partsOf = (bytes: Buffer, partSize: number) =>
    Array.from({ length: Math.ceil(bytes.length / partSize) }, (_, index) =>
      bytes.subarray(index * partSize, (index + 1) * partSize),
    );

  it("resuming a single PUT says whether its file is stored already, so a stored file is not sent again", async () => {
    const creatorId = createId("creator");
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "clip.mp4", contentType: "video/mp4", sizeBytes: videoBytes.length },
    });
    const before = await resumeVideoUpload({ runtime, creatorId, videoId: video.id });
    if (before.upload.kind !== "single") throw new Error("expected a single PUT");
    expect(before.upload.stored).toBe(false);
    if (upload.kind !== "single") throw new Error("expected a single PUT");
    expect((await putBytes(upload.url, videoBytes, upload.headers)).status).toBe(200);
    const after = await resumeVideoUpload({ runtime, creatorId, videoId: video.id });
    if (after.upload.kind !== "single") throw new Error("expected a single PUT");
    expect(after.upload.stored).toBe(true);
    await completeVideoUpload({ runtime, creatorId, videoId: video.id, body: {} });
    expect((await findVideoById({ table, creatorId, videoId: video.id, consistent: true }))?.status).toBe(
      "UPLOADED",
    );
  });

  it("resumes from the parts already stored and completes without sending them again", async () => {
    const creatorId = createId("creator");
    const bytes = Buffer.alloc(12 * MiB + 321, 3);
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "big.webm", contentType: "video/webm", sizeBytes: bytes.length },
    });
    if (upload.kind !== "multipart") throw new Error("expected multipart");
    expect(upload).toMatchObject({ partSizeBytes: 5 * MiB, partCount: 3 });
    expect(upload.parts.map((part) => [part.partNumber, part.sizeBytes])).toEqual([
      [1, 5 * MiB],
      [2, 5 * MiB],
      [3, 2 * MiB + 321],
    ]);
    const chunks = partsOf(bytes, 5 * MiB);
    // Parts 1 and 3 arrive, then the page reloads.
    for (const index of [0, 2]) {
      const part = upload.parts[index]!;
      const response = await putBytes(part.url, chunks[index]!);
      expect(response.status).toBe(200);
      await recordUploadedPart({
        runtime,
        creatorId,
        videoId: video.id,
        partNumber: part.partNumber,
        etag: response.headers.get("etag")!,
      });
    }
    expect(await codeOf(completeVideoUpload({ runtime, creatorId, videoId: video.id, body: {} }))).toBe(
      "conflict",
    );

    const resumed = await resumeVideoUpload({ runtime, creatorId, videoId: video.id });
    if (resumed.upload.kind !== "multipart") throw new Error("expected multipart");
    expect(resumed.upload.storedParts.map((part) => part.partNumber)).toEqual([1, 3]);
    expect(resumed.upload.parts.map((part) => part.partNumber)).toEqual([2]);
    const missing = resumed.upload.parts[0]!;
    const response = await putBytes(missing.url, chunks[1]!);
    await recordUploadedPart({
      runtime,
      creatorId,
      videoId: video.id,
      partNumber: 2,
      etag: response.headers.get("etag")!,
    });

    const fresh = await signUploadParts({ runtime, creatorId, videoId: video.id, partNumbers: [3] });
    expect(fresh.parts[0]).toMatchObject({ partNumber: 3, sizeBytes: 2 * MiB + 321 });
    expect(await codeOf(signUploadParts({ runtime, creatorId, videoId: video.id, partNumbers: [4] }))).toBe(
      "bad_request",
    );

    const completed = await completeVideoUpload({ runtime, creatorId, videoId: video.id, body: {} });
    expect(completed.video).toMatchObject({ status: "UPLOADED", sizeBytes: bytes.length });
    const stored = await videoObject(creatorId, video.id);
    expect(stored?.sizeBytes).toBe(bytes.length);
    expect(stored?.contentType).toBe("video/webm");
  });

  it("completes with the ETags the browser sends, and refuses ETags the storage never gave", async () => {
    const creatorId = createId("creator");
    const bytes = Buffer.alloc(6 * MiB, 9);
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "big.mkv", contentType: "video/x-matroska", sizeBytes: bytes.length },
    });
    if (upload.kind !== "multipart") throw new Error("expected multipart");
    const complete = (parts: { partNumber: number; etag: string }[]) =>
      completeVideoUpload({ runtime, creatorId, videoId: video.id, body: { parts } });
    const madeUp = "0123456789abcdef0123456789abcdef";
    const etags = [];
    for (const [index, chunk] of partsOf(bytes, 5 * MiB).entries()) {
      const response = await putBytes(upload.parts[index]!.url, chunk);
      etags.push({ partNumber: index + 1, etag: response.headers.get("etag")! });
      // Part 2 not uploaded yet: completing with an ETag for it is a conflict (the embedded S3
      // server used to crash on it, taking the local services down).
      if (index === 0)
        expect(await codeOf(complete([etags[0]!, { partNumber: 2, etag: madeUp }]))).toBe("conflict");
    }
    expect(await codeOf(complete(etags.slice(0, 1)))).toBe("conflict");
    // A made-up ETag for a part that is stored is refused too, as S3 does.
    expect(await codeOf(complete([{ partNumber: 1, etag: madeUp }, etags[1]!]))).toBe("conflict");
    const completed = await complete(etags);
    expect(completed.video.status).toBe("UPLOADED");
  });

  it("forgets reported parts storage refuses, so a resume sends them again and the upload completes", async () => {
    const creatorId = createId("creator");
    const bytes = Buffer.alloc(6 * MiB, 5);
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "big.mp4", contentType: "video/mp4", sizeBytes: bytes.length },
    });
    if (upload.kind !== "multipart") throw new Error("expected multipart");
    const chunks = partsOf(bytes, 5 * MiB);
    const videoId = video.id;
    // Both parts stored, but reported with ETags storage never gave.
    for (const [index, part] of upload.parts.entries()) {
      expect((await putBytes(part.url, chunks[index]!)).status).toBe(200);
      await recordUploadedPart({
        runtime,
        creatorId,
        videoId,
        partNumber: part.partNumber,
        etag: '"0123456789abcdef0123456789abcdef"',
      });
    }
    expect(await codeOf(completeVideoUpload({ runtime, creatorId, videoId, body: {} }))).toBe("conflict");

    const resumed = await resumeVideoUpload({ runtime, creatorId, videoId });
    if (resumed.upload.kind !== "multipart") throw new Error("expected multipart");
    expect(resumed.upload.storedParts).toEqual([]);
    expect(resumed.upload.parts.map((part) => part.partNumber)).toEqual([1, 2]);
    for (const [index, part] of resumed.upload.parts.entries()) {
      const response = await putBytes(part.url, chunks[index]!);
      await recordUploadedPart({
        runtime,
        creatorId,
        videoId,
        partNumber: part.partNumber,
        etag: response.headers.get("etag")!,
      });
    }
    const completed = await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
    expect(completed.video).toMatchObject({ status: "UPLOADED", sizeBytes: bytes.length });
  });
});

describe("two tabs completing the same upload at once", () => {
  /** The status the route answers with: 202 on success, else what errorResponse() maps the error to. */
  async function statusOf(promise: Promise<unknown>): Promise<number> {
    try {
      await promise;
      return 202;
    } catch (error) {
      return errorResponse(error).status;
    }
  }

  /** Both answer 202 with the video UPLOADED; the ingest is queued once or twice, never lost. */
  async function completeTwiceAtOnce(creatorId: string, videoId: string, body: CompleteVideoUploadBody) {
    const complete = () => completeVideoUpload({ runtime, creatorId, videoId, body });
    const answers = await Promise.all([statusOf(complete()), statusOf(complete())]);
    expect(answers, videoId).toEqual([202, 202]);
    const video = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(video?.status).toBe("UPLOADED");
    return video;
  }

  const ingestJobsFor = (jobs: JobMessage[], videoId: string) =>
    jobs.filter(
      (job) => job.name === "ingest-video" && (job.payload as { videoId: string }).videoId === videoId,
    ).length;

  it("single PUT: both answer 202, and the video is UPLOADED with its ingest queued", async () => {
    const creatorId = createId("creator");
    const videoIds: string[] = [];
    // Several rounds: the race is between two requests' reads and writes, not one fixed order.
    for (let round = 0; round < 6; round++) {
      const videoId = await uploadSmallFile(creatorId, videoBytes);
      const video = await completeTwiceAtOnce(creatorId, videoId, {});
      expect(video?.sourceSizeBytes).toBe(videoBytes.length);
      videoIds.push(videoId);
    }
    const jobs = await drainJobs(runtime);
    for (const videoId of videoIds) {
      expect(ingestJobsFor(jobs, videoId)).toBeGreaterThanOrEqual(1);
      expect(ingestJobsFor(jobs, videoId)).toBeLessThanOrEqual(2);
    }
  });

  it("multipart: both answer 202 (with or without the parts given), and the object is whole", async () => {
    const creatorId = createId("creator");
    const bytes = Buffer.concat([Buffer.alloc(5 * MiB, 1), Buffer.alloc(MiB + 17, 2)]);
    const videoIds: string[] = [];
    for (let round = 0; round < 4; round++) {
      const { video, upload } = await createVideoUpload({
        runtime,
        creatorId,
        body: { filename: "big.webm", contentType: "video/webm", sizeBytes: bytes.length },
      });
      if (upload.kind !== "multipart") throw new Error("expected multipart");
      const parts = [];
      for (const part of upload.parts) {
        const start = (part.partNumber - 1) * upload.partSizeBytes;
        const response = await putBytes(part.url, bytes.subarray(start, start + part.sizeBytes));
        expect(response.status).toBe(200);
        const etag = response.headers.get("etag")!;
        await recordUploadedPart({
          runtime,
          creatorId,
          videoId: video.id,
          partNumber: part.partNumber,
          etag,
        });
        parts.push({ partNumber: part.partNumber, etag });
      }
      // One tab sends its ETags, the other (a reloaded page) lets the server find the parts.
      await completeTwiceAtOnce(creatorId, video.id, round % 2 === 0 ? { parts } : {});
      expect((await videoObject(creatorId, video.id))?.sizeBytes).toBe(bytes.length);
      videoIds.push(video.id);
    }
    const jobs = await drainJobs(runtime);
    for (const videoId of videoIds) {
      expect(ingestJobsFor(jobs, videoId)).toBeGreaterThanOrEqual(1);
      expect(ingestJobsFor(jobs, videoId)).toBeLessThanOrEqual(2);
    }
  });

  it("a request finding the completion held waits for the holder's outcome and answers with it", async () => {
    const creatorId = createId("creator");
    const videoId = await uploadSmallFile(creatorId, videoBytes);
    // Another request holds it (as the first tab does while it checks the file)…
    const hold = await claimVideoCompletion({ table, creatorId, videoId, leaseMs: 60_000 });
    expect(hold).not.toBeNull();
    expect(await claimVideoCompletion({ table, creatorId, videoId, leaseMs: 60_000 })).toBeNull();
    const waiting = completeVideoUpload({ runtime, creatorId, videoId, body: {} });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // …and finishes while this one waits.
    await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from: ["UPLOADING"],
      to: "UPLOADED",
      set: { completingUntil: null },
    });
    expect((await waiting).video.status).toBe("UPLOADED");
  });

  it("a request still finding the completion held after its 30 s wait answers 503 with Retry-After and changes nothing", async () => {
    const creatorId = createId("creator");
    const videoId = await uploadSmallFile(creatorId, videoBytes);
    const hold = await claimVideoCompletion({ table, creatorId, videoId, leaseMs: 5 * 60_000 });
    expect(hold).not.toBeNull();
    // Only the clock is faked: the table, the bucket and the 200 ms polls stay real.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const waiting = completeVideoUpload({ runtime, creatorId, videoId, body: {} }).catch(
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      vi.setSystemTime(Date.now() + 31_000);
      const response = errorResponse(await waiting);
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("5");
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /still completing this upload/,
      );
    } finally {
      vi.useRealTimers();
    }
    // The holder's work is untouched: still uploading, still its hold.
    const video = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(video?.status).toBe("UPLOADING");
    expect(video?.completingUntil).toBe(hold);
  });

  it("a hold left by a request that died lapses, and the next complete does the work", async () => {
    const creatorId = createId("creator");
    const videoId = await uploadSmallFile(creatorId, videoBytes);
    const longAgo = new Date(Date.now() - 10 * 60_000);
    expect(
      await claimVideoCompletion({ table, creatorId, videoId, leaseMs: 60_000, now: longAgo }),
    ).not.toBeNull();
    const completed = await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
    expect(completed.video).toMatchObject({ status: "UPLOADED", sizeBytes: videoBytes.length });
    expect(
      (await findVideoById({ table, creatorId, videoId, consistent: true }))?.completingUntil,
    ).toBeNull();
  });

  it("a complete that finds nothing stored lets go of its hold, so the retry after the upload goes ahead", async () => {
    const creatorId = createId("creator");
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "clip.mp4", contentType: "video/mp4", sizeBytes: videoBytes.length },
    });
    if (upload.kind !== "single") throw new Error("expected a single PUT");
    expect(await codeOf(completeVideoUpload({ runtime, creatorId, videoId: video.id, body: {} }))).toBe(
      "conflict",
    );
    expect(
      (await findVideoById({ table, creatorId, videoId: video.id, consistent: true }))?.completingUntil,
    ).toBeNull();
    await putBytes(upload.url, videoBytes, upload.headers);
    const started = Date.now();
    expect(
      (await completeVideoUpload({ runtime, creatorId, videoId: video.id, body: {} })).video.status,
    ).toBe("UPLOADED");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

const videoObject = (creatorId: string, videoId: string) =>
  headObject({ s3: runtime.clients.s3, bucket, key: `${videoObjectPrefix(creatorId, videoId)}source` });

describe("ownership", () => {
  it("creator B gets 404 for creator A's video from every function, and A's video is untouched", async () => {
    const creatorA = createId("creator");
    const creatorB = createId("creator");
    const { video } = await createVideoUpload({
      runtime,
      creatorId: creatorA,
      body: { filename: "a.mp4", contentType: "video/mp4", sizeBytes: 20 * MiB },
    });
    const videoId = video.id;
    const asB = { runtime, creatorId: creatorB, videoId };
    expect(await codeOf(getVideo(asB))).toBe("not_found");
    expect(await codeOf(resumeVideoUpload(asB))).toBe("not_found");
    expect(await codeOf(signUploadParts({ ...asB, partNumbers: [1] }))).toBe("not_found");
    expect(await codeOf(recordUploadedPart({ ...asB, partNumber: 1, etag: "abc" }))).toBe("not_found");
    expect(await codeOf(completeVideoUpload({ ...asB, body: {} }))).toBe("not_found");
    expect(await codeOf(deleteVideo(asB))).toBe("not_found");
    expect((await listVideos({ runtime, creatorId: creatorB })).videos).toEqual([]);
    // Ids that are not video ids (or try to break out of a key) are simply not found.
    expect(await codeOf(getVideo({ runtime, creatorId: creatorB, videoId: "vid_#CREATOR" }))).toBe(
      "not_found",
    );

    const after = await getVideo({ runtime, creatorId: creatorA, videoId });
    expect(after.video).toMatchObject({ id: videoId, status: "UPLOADING" });
    expect((await listVideos({ runtime, creatorId: creatorA })).videos.map((v) => v.id)).toEqual([videoId]);
  });
});

describe("delete", () => {
  async function exists(key: Key) {
    const output = await table.documentClient.send(
      new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }),
    );
    return output.Item !== undefined;
  }

  it("leaves no object and no item behind, and a second delete is 404", async () => {
    const creatorId = createId("creator");
    const videoId = await uploadSmallFile(creatorId, videoBytes);
    await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
    await ingestVideoJob.run({ creatorId, videoId }, testJobContext(runtime).context);
    // What the pipeline leaves: artifacts, renders, chapters, clips and their rank items.
    const clipId = clipIdFor(videoId, 0);
    const objectKeys = [
      analysisObjectKey(creatorId, videoId, "signals"),
      clipRenderObjectKey({ creatorId, videoId, clipId, revision: 0, kind: "video" }),
      clipRenderObjectKey({ creatorId, videoId, clipId, revision: 0, kind: "thumbnail" }),
    ];
    for (const key of objectKeys)
      await runtime.clients.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: "x" }));
    const itemKeys: Key[] = [
      chaptersKey(creatorId, videoId),
      clipKey(creatorId, clipId),
      clipRankKey(creatorId, 77, clipId),
    ];
    for (const key of itemKeys)
      await table.documentClient.send(
        new PutCommand({ TableName: table.tableName, Item: { ...key, type: "Clip", clipId, score: 77 } }),
      );
    const prefix = videoObjectPrefix(creatorId, videoId);
    // Those, the source and the frame the check took of it.
    expect((await listKeys({ s3: runtime.clients.s3, bucket, prefix })).length).toBe(5);

    await deleteVideo({ runtime, creatorId, videoId });
    expect(await listKeys({ s3: runtime.clients.s3, bucket, prefix })).toEqual([]);
    for (const key of [...itemKeys, videoKey(creatorId, videoId), uploadPartsKey(creatorId, videoId)])
      expect(await exists(key), JSON.stringify(key)).toBe(false);
    // Until its upload URL expires, the index keeps the video's folder to empty once more.
    expect(await videoIndexEntryType(table, videoId)).toBe("DeletedVideo");
    expect(await codeOf(deleteVideo({ runtime, creatorId, videoId }))).toBe("not_found");
  });

  it("cancels an upload in progress", async () => {
    const creatorId = createId("creator");
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "big.mp4", contentType: "video/mp4", sizeBytes: 11 * MiB },
    });
    if (upload.kind !== "multipart") throw new Error("expected multipart");
    const response = await putBytes(upload.parts[0]!.url, Buffer.alloc(5 * MiB));
    await recordUploadedPart({
      runtime,
      creatorId,
      videoId: video.id,
      partNumber: 1,
      etag: response.headers.get("etag")!,
    });
    await deleteVideo({ runtime, creatorId, videoId: video.id });
    for (const key of [videoKey(creatorId, video.id), uploadPartsKey(creatorId, video.id)])
      expect(await exists(key)).toBe(false);
    expect(await videoIndexEntryType(table, video.id)).toBe("DeletedVideo");
    expect(
      await listKeys({ s3: runtime.clients.s3, bucket, prefix: videoObjectPrefix(creatorId, video.id) }),
    ).toEqual([]);
    // The old part URLs lead nowhere the app will ever read.
    expect(await codeOf(completeVideoUpload({ runtime, creatorId, videoId: video.id, body: {} }))).toBe(
      "not_found",
    );
  });
});

describe("import by URL (request side)", () => {
  it("refuses private and malformed addresses with 422 when not allowed", async () => {
    const creatorId = createId("creator");
    for (const url of [
      "http://127.0.0.1:9/video.mp4",
      "http://[::1]/video.mp4",
      "http://169.254.169.254/latest/meta-data",
      "http://10.0.0.8/x.mp4",
      "ftp://example.com/x.mp4",
      "http://user:secret@example.com/x.mp4",
      "not a url",
    ]) {
      expect(await codeOf(importVideoFromUrl({ runtime, creatorId, url })), url).toBe("validation_failed");
    }
    expect((await listVideos({ runtime, creatorId })).videos).toEqual([]);
  });
});
