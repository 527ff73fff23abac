import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findVideoById } from "@/db/repos/video-repo";
import { createId } from "@/lib/ids";
import { tableOf } from "@/server/runtime";
import type { JobMessage, JobName } from "@/worker/catalog";
import { ingestVideoJob } from "@/worker/jobs/ingest-video";
import { testRuntime } from "../../../dev/test/runtime";
import { completeVideoUpload, INGEST_PRESUMED_LOST_AFTER_MS } from "./complete-video-upload";
import { createVideoUpload } from "./create-video-upload";
import { testJobContext } from "./testing/test-job-context";
import { makeTestVideo } from "./testing/test-media";
import { createTestQueue, deleteTestQueue, drainJobs, testQueueName } from "./testing/test-queue";

/**
 * A repeated POST /upload-complete must not start a pipeline per request: it answers as the
 * first one did, and queues the ingest again only when the first one looks lost.
 */

const runtime = testRuntime({ TRUSS_QUEUE_NAME: testQueueName("complete-upload") });
const table = tableOf(runtime);
let directory: string;
let videoBytes: Buffer;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-complete-upload-"));
  await createTestQueue(runtime);
  await makeTestVideo({ outputPath: path.join(directory, "clip.mp4"), durationSeconds: 2 });
  videoBytes = readFileSync(path.join(directory, "clip.mp4"));
});

afterAll(async () => {
  await deleteTestQueue(runtime).catch(() => {});
  rmSync(directory, { recursive: true, force: true });
});

async function uploadSmallFile(creatorId: string): Promise<string> {
  const { video, upload } = await createVideoUpload({
    runtime,
    creatorId,
    body: { filename: "clip.mp4", contentType: "video/mp4", sizeBytes: videoBytes.length },
  });
  if (upload.kind !== "single") throw new Error("expected a single PUT");
  const response = await fetch(upload.url, {
    method: "PUT",
    body: new Uint8Array(videoBytes),
    headers: upload.headers,
  });
  await response.arrayBuffer();
  expect(response.status).toBe(200);
  return video.id;
}

const jobsFor = (jobs: JobMessage[], name: JobName, videoId: string) =>
  jobs.filter((job) => job.name === name && (job.payload as { videoId: string }).videoId === videoId).length;

async function updatedAtOf(creatorId: string, videoId: string): Promise<number> {
  const video = await findVideoById({ table, creatorId, videoId, consistent: true });
  if (!video) throw new Error("video is gone");
  return Date.parse(video.updatedAt);
}

describe("a retried upload-complete", () => {
  it("answers as the first did, and queues the ingest again only once the first looks lost", async () => {
    const creatorId = createId("creator");
    const videoId = await uploadSmallFile(creatorId);
    const first = await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
    expect(first.video).toMatchObject({ id: videoId, status: "UPLOADED", sizeBytes: videoBytes.length });
    expect(jobsFor(await drainJobs(runtime), "ingest-video", videoId)).toBe(1);

    // A double click, a retry after a lost answer: the same answer, and no second pipeline.
    for (let retry = 0; retry < 3; retry++) {
      const again = await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
      expect(again.video).toMatchObject({ id: videoId, status: "UPLOADED", sizeBytes: videoBytes.length });
    }
    expect(jobsFor(await drainJobs(runtime), "ingest-video", videoId)).toBe(0);

    // Still UPLOADED, untouched for longer than an ingest takes to start: its job was lost.
    const later = new Date((await updatedAtOf(creatorId, videoId)) + INGEST_PRESUMED_LOST_AFTER_MS + 1_000);
    const retried = await completeVideoUpload({ runtime, creatorId, videoId, body: {}, now: later });
    expect(retried.video).toMatchObject({ id: videoId, status: "UPLOADED" });
    expect(jobsFor(await drainJobs(runtime), "ingest-video", videoId)).toBe(1);
  });

  it("queues nothing once ingested, and a duplicate ingest does not queue a second analysis", async () => {
    const creatorId = createId("creator");
    const videoId = await uploadSmallFile(creatorId);
    await completeVideoUpload({ runtime, creatorId, videoId, body: {} });
    await drainJobs(runtime);
    await ingestVideoJob.run({ creatorId, videoId }, testJobContext(runtime).context);
    expect(jobsFor(await drainJobs(runtime), "analyze-video", videoId)).toBe(1);

    const later = new Date((await updatedAtOf(creatorId, videoId)) + INGEST_PRESUMED_LOST_AFTER_MS + 1_000);
    for (const now of [undefined, later]) {
      const again = await completeVideoUpload({ runtime, creatorId, videoId, body: {}, now });
      expect(again.video).toMatchObject({ id: videoId, status: "QUEUED" });
    }
    expect(await drainJobs(runtime)).toEqual([]);

    // A second ingest message (a retried complete, the sweep) finds the video QUEUED: whoever
    // moved it there queued its analysis.
    await ingestVideoJob.run({ creatorId, videoId }, testJobContext(runtime).context);
    expect(jobsFor(await drainJobs(runtime), "analyze-video", videoId)).toBe(0);
    // A redelivered one may follow an attempt that stopped between the two steps: it queues it.
    await ingestVideoJob.run({ creatorId, videoId }, testJobContext(runtime, { attempt: 2 }).context);
    expect(jobsFor(await drainJobs(runtime), "analyze-video", videoId)).toBe(1);
  });
});
