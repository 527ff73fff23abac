import { PutObjectCommand } from "@aws-sdk/client-s3";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeVideoKey, type Key } from "@/db/keys";
import {
  claimVideoCompletion,
  createVideo,
  findVideoById,
  type NewVideo,
  recordUploadPart,
  releaseVideoCompletion,
  updateVideo,
  updateVideoStatus,
  type VideoStatus,
} from "@/db/repos/video-repo";
import { singleUploadVideo } from "@/db/testing/single-upload-video";
import { videoIndexEntryType } from "@/db/testing/video-index-entry";
import { createId } from "@/lib/ids";
import { tableOf } from "@/server/runtime";
import { createVideoUpload } from "@/server/videos/create-video-upload";
import { deleteVideo } from "@/server/videos/delete-video";
import { testJobContext } from "@/server/videos/testing/test-job-context";
import { deleteTestQueue, drainJobs, testQueueName } from "@/server/videos/testing/test-queue";
import { listKeys } from "@/storage/delete-prefix";
import { videoObjectPrefix } from "@/storage/object-keys";
import { createTestCreator, emailsTo } from "@/worker/testing/creator-emails";
import { provisionResources } from "../../../dev/provision";
import { testRuntime, testTableName } from "../../../dev/test/runtime";
import { MAX_REQUEUES, sweepVideos, sweepVideosJob } from "./sweep-videos";

// Its own table: its sweeps act on whatever has stalled in the table they read.
const runtime = testRuntime({
  TRUSS_QUEUE_NAME: testQueueName("sweep"),
  TRUSS_TABLE_NAME: testTableName("sweep"),
  UPLOAD_ABANDON_AFTER_HOURS: "24",
});
const table = tableOf(runtime);
const bucket = runtime.config.aws.bucketName;
const HOUR = 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);

beforeAll(() => {
  const { clients, config } = runtime;
  return provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
});
afterAll(() => deleteTestQueue(runtime).catch(() => {}));

async function exists(key: Key) {
  const output = await table.documentClient.send(
    new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }),
  );
  return output.Item !== undefined;
}

const PATH: VideoStatus[] = ["UPLOADING", "UPLOADED", "QUEUED", "ANALYZING", "RENDERING"];

/** A video walked to `status`, its last change `ageMs` ago. */
async function videoIn(status: VideoStatus, ageMs: number, overrides: Partial<NewVideo> = {}) {
  const creatorId = createId("creator");
  const video = singleUploadVideo(creatorId, overrides);
  await createVideo({ table, video, now: ago(ageMs) });
  for (let index = 1; index <= PATH.indexOf(status); index++) {
    await updateVideoStatus({
      table,
      creatorId,
      videoId: video.videoId,
      from: [PATH[index - 1]!],
      to: PATH[index]!,
      now: ago(ageMs),
    });
  }
  return { creatorId, videoId: video.videoId };
}

describe("sweep-videos", () => {
  it("deletes abandoned uploads with their objects and items, and keeps live ones", async () => {
    const abandoned = await videoIn("UPLOADING", 25 * HOUR);
    await runtime.clients.s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `${videoObjectPrefix(abandoned.creatorId, abandoned.videoId)}source`,
        Body: "x",
      }),
    );
    const fresh = await videoIn("UPLOADING", 2 * HOUR);
    // Old, but its parts are still arriving: a long upload, not an abandoned one.
    const uploadId = "upload-still-receiving-parts";
    const slow = await videoIn("UPLOADING", 30 * HOUR, {
      uploadKind: "multipart",
      uploadId,
      partSizeBytes: 5 << 20,
      partCount: 4,
    });
    await recordUploadPart({
      table,
      creatorId: slow.creatorId,
      videoId: slow.videoId,
      uploadId,
      partNumber: 1,
      etag: "e1",
    });

    await sweepVideosJob.run({}, testJobContext(runtime).context);

    expect(await findVideoById({ table, ...abandoned })).toBeUndefined();
    // Its index entry waits for the upload URLs to expire, to empty the folder once more.
    expect(await videoIndexEntryType(table, abandoned.videoId)).toBe("DeletedVideo");
    expect(
      await listKeys({
        s3: runtime.clients.s3,
        bucket,
        prefix: videoObjectPrefix(abandoned.creatorId, abandoned.videoId),
      }),
    ).toEqual([]);
    expect((await findVideoById({ table, ...fresh }))?.status).toBe("UPLOADING");
    expect((await findVideoById({ table, ...slow }))?.status).toBe("UPLOADING");
  });

  it("leaves an old upload alone while a request is completing it", async () => {
    // The request took the completion hold just after the sweep read the video: its item still
    // shows the old change time, its hold runs on.
    const completing = await videoIn("UPLOADING", 25 * HOUR);
    const hold = await claimVideoCompletion({
      table,
      ...completing,
      leaseMs: 26 * HOUR,
      now: ago(25 * HOUR),
    });
    expect(hold).not.toBeNull();

    await sweepVideosJob.run({}, testJobContext(runtime).context);

    expect((await findVideoById({ table, ...completing }))?.status).toBe("UPLOADING");
  });

  it("takes its hold on an old upload only as read, and leaves it looking as old as it was", async () => {
    const old = await videoIn("UPLOADING", 25 * HOUR);
    const read = (await findVideoById({ table, ...old, consistent: true }))!;
    // Touched since the read (a resume, say): not taken.
    expect(
      await claimVideoCompletion({ table, ...old, leaseMs: 60_000, seenUpdatedAt: ago(HOUR).toISOString() }),
    ).toBeNull();
    const hold = await claimVideoCompletion({
      table,
      ...old,
      leaseMs: 60_000,
      seenUpdatedAt: read.updatedAt,
    });
    expect(hold).not.toBeNull();
    const held = (await findVideoById({ table, ...old, consistent: true }))!;
    expect(held).toMatchObject({ updatedAt: read.updatedAt, completingUntil: hold });
    // Let go after a failed purge: as old as before, so the next sweep tries again.
    await releaseVideoCompletion({ table, ...old, hold: hold!, keepUpdatedAt: true });
    expect(await findVideoById({ table, ...old, consistent: true })).toMatchObject({
      updatedAt: read.updatedAt,
      completingUntil: null,
    });
  });

  it("re-queues videos stuck mid-pipeline with the job that moves them on", async () => {
    const uploaded = await videoIn("UPLOADED", 20 * 60_000);
    const analyzing = await videoIn("ANALYZING", 20 * 60_000);
    const rendering = await videoIn("RENDERING", 20 * 60_000);
    const busy = await videoIn("ANALYZING", 60_000);
    // QUEUED may just be waiting its turn: only after an hour.
    const waiting = await videoIn("QUEUED", 20 * 60_000);
    const lost = await videoIn("QUEUED", 2 * HOUR);
    await drainJobs(runtime);

    await sweepVideosJob.run({}, testJobContext(runtime).context);
    const jobs = (await drainJobs(runtime)).map(
      (job) => `${job.name} ${(job.payload as { videoId: string }).videoId}`,
    );
    expect(jobs).toEqual(
      expect.arrayContaining([
        `ingest-video ${uploaded.videoId}`,
        `analyze-video ${analyzing.videoId}`,
        `analyze-video ${rendering.videoId}`,
        `analyze-video ${lost.videoId}`,
      ]),
    );
    expect(jobs.join("\n")).not.toContain(busy.videoId);
    expect(jobs.join("\n")).not.toContain(waiting.videoId);
    expect((await findVideoById({ table, ...analyzing }))?.requeueCount).toBe(1);

    // Re-queued just now: the next sweep leaves it alone.
    await sweepVideosJob.run({}, testJobContext(runtime).context);
    expect(
      (await drainJobs(runtime)).map((job) => (job.payload as { videoId: string }).videoId),
    ).not.toContain(analyzing.videoId);
  });

  it("re-queues an import whose job was lost, rather than deleting it as an abandoned upload", async () => {
    const lostImport = await videoIn("UPLOADING", 20 * 60_000, {
      origin: "import",
      importUrl: "https://media.example.com/talk.mp4",
      uploadKind: "multipart",
    });
    const downloading = await videoIn("UPLOADING", 60_000, {
      origin: "import",
      importUrl: "https://media.example.com/live.mp4",
      uploadKind: "multipart",
    });
    await drainJobs(runtime);

    await sweepVideosJob.run({}, testJobContext(runtime).context);
    const jobs = (await drainJobs(runtime)).map(
      (job) => `${job.name} ${(job.payload as { videoId: string }).videoId}`,
    );
    expect(jobs).toContain(`import-video ${lostImport.videoId}`);
    expect(jobs.join("\n")).not.toContain(downloading.videoId);
    const requeued = await findVideoById({ table, ...lostImport });
    expect(requeued?.status).toBe("UPLOADING");
    expect(requeued?.requeueCount).toBe(1);

    // One that keeps stalling ends FAILED with the reason, as any stage does.
    await updateVideo({
      table,
      ...lostImport,
      set: { requeueCount: MAX_REQUEUES },
      now: ago(20 * 60_000),
      expectedVersion: requeued?.version,
    });
    await sweepVideosJob.run({}, testJobContext(runtime).context);
    const failed = await findVideoById({ table, ...lostImport });
    expect(failed?.status).toBe("FAILED");
    expect(failed?.failureReason).toMatch(/stalled/);
  });

  it("fails a video that keeps stalling instead of re-queuing it forever, and emails the creator why", async () => {
    const stuck = await videoIn("ANALYZING", 20 * 60_000);
    const creator = await createTestCreator(runtime, { creatorId: stuck.creatorId });
    const video = await findVideoById({ table, ...stuck });
    await updateVideo({
      table,
      ...stuck,
      set: { requeueCount: MAX_REQUEUES },
      now: ago(20 * 60_000),
      expectedVersion: video?.version,
    });
    await sweepVideosJob.run({}, testJobContext(runtime).context);
    const failed = await findVideoById({ table, ...stuck });
    expect(failed?.status).toBe("FAILED");
    expect(failed?.failureReason).toMatch(/stalled/);
    expect(await exists(activeVideoKey(stuck.videoId))).toBe(false);
    const emails = await emailsTo(runtime, creator.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.text).toContain(failed?.failureReason);
  });

  it("does not count re-queues of a video only waiting in QUEUED toward failing it for stalls", async () => {
    const waiting = await videoIn("QUEUED", 2 * HOUR);
    // A backlog keeps it QUEUED past the threshold sweep after sweep.
    for (let sweepCount = 0; sweepCount <= MAX_REQUEUES; sweepCount++) {
      const video = (await findVideoById({ table, ...waiting, consistent: true }))!;
      await updateVideo({ table, ...waiting, set: {}, now: ago(2 * HOUR), expectedVersion: video.version });
      await sweepVideos({ runtime });
    }
    const requeued = await findVideoById({ table, ...waiting, consistent: true });
    expect(requeued).toMatchObject({ status: "QUEUED", requeueCount: 0 });
    expect(Date.now() - Date.parse(requeued!.updatedAt)).toBeLessThan(60_000);
    const analyzeJobs = (await drainJobs(runtime)).filter(
      (job) =>
        job.name === "analyze-video" && (job.payload as { videoId: string }).videoId === waiting.videoId,
    );
    expect(analyzeJobs).toHaveLength(MAX_REQUEUES + 1);

    // Its first real stall, once analysis started, is re-queued like any other, not failed.
    await updateVideoStatus({ table, ...waiting, from: ["QUEUED"], to: "ANALYZING", now: ago(20 * 60_000) });
    await sweepVideos({ runtime });
    const stalled = await findVideoById({ table, ...waiting, consistent: true });
    expect(stalled).toMatchObject({ status: "ANALYZING", requeueCount: 1 });
  });

  it("removes index entries whose video is gone", async () => {
    const videoId = createId("video");
    await table.documentClient.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...activeVideoKey(videoId),
          type: "ActiveVideo",
          creatorId: createId("creator"),
          videoId,
          status: "ANALYZING",
          updatedAt: ago(HOUR).toISOString(),
        },
      }),
    );
    await sweepVideosJob.run({}, testJobContext(runtime).context);
    expect(await exists(activeVideoKey(videoId))).toBe(false);
  });

  it("empties a deleted video's folder once its upload URL has expired, removing a file PUT after the delete", async () => {
    const creatorId = createId("creator");
    const { video, upload } = await createVideoUpload({
      runtime,
      creatorId,
      body: { filename: "talk.mp4", contentType: "video/mp4", sizeBytes: 5 },
    });
    if (upload.kind !== "single") throw new Error("expected a single PUT");
    await deleteVideo({ runtime, creatorId, videoId: video.id });
    // The URL signed before the delete still stores a file, which nothing refers to.
    const put = await fetch(upload.url, { method: "PUT", body: "bytes", headers: upload.headers });
    expect(put.status).toBe(200);
    const prefix = videoObjectPrefix(creatorId, video.id);
    const stored = () => listKeys({ s3: runtime.clients.s3, bucket, prefix });
    expect(await stored()).toHaveLength(1);

    const urlStillValid = await sweepVideos({ runtime, now: new Date(Date.now() + 30 * 60_000) });
    expect(await stored()).toHaveLength(1);
    expect(await videoIndexEntryType(table, video.id)).toBe("DeletedVideo");
    expect(urlStillValid.lateObjects).toBe(0);

    const report = await sweepVideos({ runtime, now: new Date(Date.now() + 70 * 60_000) });
    expect(await stored()).toEqual([]);
    expect(await videoIndexEntryType(table, video.id)).toBeNull();
    expect(report.lateObjects).toBeGreaterThanOrEqual(1);
  });
});
