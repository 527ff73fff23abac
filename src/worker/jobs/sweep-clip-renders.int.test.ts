import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { activeRenderKey, type Key } from "@/db/keys";
import {
  type Clip,
  findClipById,
  markClipRendered,
  requeueClipRender,
  setClipRenderStatus,
  upsertClipsForVideo,
} from "@/db/repos/clip-repo";
import { updateVideoStatus, type Video } from "@/db/repos/video-repo";
import { standInRender } from "@/db/testing/stand-in-render";
import { clipIdFor, createId } from "@/lib/ids";
import { tableOf } from "@/server/runtime";
import { testJobContext } from "@/server/videos/testing/test-job-context";
import { deleteTestQueue, drainJobs, testQueueName } from "@/server/videos/testing/test-queue";
import { headObject } from "@/storage/head-object";
import { JOB_CATALOG } from "@/worker/catalog";
import {
  createQueuedTestVideo,
  recordUploadedVideo,
  recordVideoReady,
} from "@/worker/testing/create-queued-test-video";
import { provisionResources } from "../../../dev/provision";
import { testRuntime, testTableName } from "../../../dev/test/runtime";
import { renderClipJob } from "./render-clip";
import { MAX_RENDER_STALLS, sweepClipRenders } from "./sweep-clip-renders";

const runtime = testRuntime({
  TRUSS_QUEUE_NAME: testQueueName("sweep-renders"),
  TRUSS_TABLE_NAME: testTableName("sweep-renders"),
});
const table = tableOf(runtime);
const MINUTE = 60_000;
const DAY = 24 * 3600_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const sweep = () => sweepClipRenders({ runtime });

let video: Video;

beforeAll(async () => {
  const { clients, config } = runtime;
  await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  ({ video } = await createQueuedTestVideo({ runtime, durationSeconds: 20 }));
  video = await recordVideoReady({ table, video });
});
afterAll(() => deleteTestQueue(runtime).catch(() => {}));

async function exists(key: Key) {
  const output = await table.documentClient.send(
    new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }),
  );
  return output.Item !== undefined;
}

/** Clips of `videoId` whose render was owed since `ageMs` ago (as if its job was lost then). */
async function owedClips(videoId: string, ordinals: number[], ageMs: number): Promise<Clip[]> {
  const { clips } = await upsertClipsForVideo({
    table,
    creatorId: video.creatorId,
    videoId,
    videoTitle: "planted-events.mp4",
    moments: ordinals.map((ordinal) => ({
      ordinal,
      startSeconds: 2 + ordinal * 6,
      endSeconds: 7 + ordinal * 6,
      score: 40,
      subscores: { hook: 40, audioEnergy: 40, visualDynamics: 40, speech: 0, chat: null },
      reasons: [],
      title: `Moment ${ordinal + 1}`,
      hookLine: null,
      platformCopy: null,
    })),
    now: ago(ageMs),
  });
  return clips;
}

const renderJobsFor = async (clipIds: string[]) =>
  (await drainJobs(runtime)).filter(
    (job) => job.name === "render-clip" && clipIds.includes((job.payload as { clipId: string }).clipId),
  );

describe("sweep of clip renders", () => {
  it("queues again a render lost with its job, whose job then renders the clip READY", async () => {
    const { creatorId, videoId } = video;
    const [lost, waiting] = await owedClips(videoId, [0, 1], 2 * DAY);
    // Rendered long ago: no render owed, nothing to sweep.
    await markClipRendered({
      table,
      creatorId,
      clipId: waiting!.clipId,
      render: standInRender(
        { videoKey: "stand-in.mp4", thumbnailKey: "stand-in.jpg", previewKey: "stand-in.webp" },
        waiting!,
      ),
      now: ago(2 * DAY),
    });
    await drainJobs(runtime);

    const report = await sweep();
    expect(report.requeued).toBeGreaterThanOrEqual(1);
    const jobs = await renderJobsFor([lost!.clipId, waiting!.clipId]);
    expect(jobs.map((job) => job.payload)).toEqual([
      { creatorId, videoId, clipId: lost!.clipId, revision: 0 },
    ]);
    const requeued = await findClipById({ table, creatorId, clipId: lost!.clipId, consistent: true });
    // It never started: waiting is no stall.
    expect(requeued).toMatchObject({ status: "PENDING", renderStalls: 0 });
    expect(Date.now() - Date.parse(requeued!.updatedAt)).toBeLessThan(60_000);

    // Just queued: the next sweep leaves it to its job.
    await sweep();
    expect(await renderJobsFor([lost!.clipId])).toEqual([]);

    // The queued job renders it; the clip is READY and off the index.
    await renderClipJob.run(jobs[0]!.payload as never, testJobContext(runtime).context);
    const rendered = await findClipById({ table, creatorId, clipId: lost!.clipId, consistent: true });
    expect(rendered).toMatchObject({ status: "READY", render: { revision: 0, width: 1080, height: 1920 } });
    expect(
      await headObject({
        s3: runtime.clients.s3,
        bucket: runtime.config.aws.bucketName,
        key: rendered!.render!.videoKey,
      }),
    ).toMatchObject({ sizeBytes: expect.any(Number) });
    expect(await exists(activeRenderKey(lost!.clipId))).toBe(false);
  });

  it("fails a render that keeps stopping mid-way, never one that only waits, and leaves unfinished videos alone", async () => {
    const { creatorId, videoId } = video;
    const [stalling, patient] = await owedClips(videoId, [2, 3], 3 * DAY);
    const longAgo = ago(3 * DAY);
    const startRender = (clipId: string) =>
      setClipRenderStatus({ table, creatorId, clipId, revision: 0, status: "RENDERING", now: longAgo });
    // Started and lost its worker, queued again by the sweep, MAX_RENDER_STALLS times over.
    let clip = stalling!;
    for (let count = 0; count < MAX_RENDER_STALLS; count++) {
      const started = await startRender(clip.clipId);
      clip = (await requeueClipRender({
        table,
        creatorId,
        clipId: clip.clipId,
        expectedVersion: started!.version,
        now: longAgo,
      }))!;
    }
    expect(clip.renderStalls).toBe(MAX_RENDER_STALLS);
    // ...and once more.
    await startRender(clip.clipId);
    // Queued again as often, but never started: still only waiting.
    let waiting = patient!;
    for (let count = 0; count <= MAX_RENDER_STALLS; count++) {
      waiting = (await requeueClipRender({
        table,
        creatorId,
        clipId: waiting.clipId,
        expectedVersion: waiting.version,
        now: longAgo,
      }))!;
    }
    // A video still being analysed: its pipeline renders its clips (the video sweep watches it).
    const { video: processing } = await createQueuedTestVideo({ runtime, creatorId, durationSeconds: 20 });
    const [unfinished] = await owedClips(processing.videoId, [0], 2 * DAY);
    await drainJobs(runtime);

    await sweep();
    const failed = await findClipById({ table, creatorId, clipId: clip.clipId, consistent: true });
    expect(failed).toMatchObject({ status: "FAILED", revision: 0 });
    expect(failed!.renderFailureReason).toMatch(/stopped before the end 4 times/);
    expect(await exists(activeRenderKey(clip.clipId))).toBe(false);
    expect(
      await findClipById({ table, creatorId, clipId: unfinished!.clipId, consistent: true }),
    ).toMatchObject({
      status: "PENDING",
      renderStalls: 0,
    });
    expect(
      (await renderJobsFor([clip.clipId, waiting.clipId, unfinished!.clipId])).map((job) => job.payload),
    ).toEqual([{ creatorId, videoId, clipId: waiting.clipId, revision: 0 }]);
  });

  it("leaves a slow but live render alone until the render job's own time limit has passed", async () => {
    const { creatorId, videoId } = video;
    const [slow, lost] = await owedClips(videoId, [4, 5], DAY);
    const renderTimeLimitMs = JOB_CATALOG["render-clip"].timeoutMs;
    const startRender = (clipId: string, startedAgoMs: number) =>
      setClipRenderStatus({
        table,
        creatorId,
        clipId,
        revision: 0,
        status: "RENDERING",
        now: ago(startedAgoMs),
      });
    // Still within its job's time limit: its worker may be encoding it right now.
    await startRender(slow!.clipId, renderTimeLimitMs - 5 * MINUTE);
    // Past the limit by more than the abort takes: no worker is rendering it any more.
    await startRender(lost!.clipId, renderTimeLimitMs + 10 * MINUTE);
    await drainJobs(runtime);

    await sweep();
    expect(await findClipById({ table, creatorId, clipId: slow!.clipId, consistent: true })).toMatchObject({
      status: "RENDERING",
      renderStalls: 0,
    });
    expect(await findClipById({ table, creatorId, clipId: lost!.clipId, consistent: true })).toMatchObject({
      status: "PENDING",
      renderStalls: 1,
    });
    expect((await renderJobsFor([slow!.clipId, lost!.clipId])).map((job) => job.payload)).toEqual([
      { creatorId, videoId, clipId: lost!.clipId, revision: 0 },
    ]);
  });

  it("removes the entries of clips whose video FAILED or is gone, which nothing will render", async () => {
    const { creatorId } = video;
    const failedVideoId = createId("video");
    await recordUploadedVideo({ table, creatorId, videoId: failedVideoId, filename: "x.mp4", sizeBytes: 5 });
    await updateVideoStatus({
      table,
      creatorId,
      videoId: failedVideoId,
      from: ["UPLOADED"],
      to: "FAILED",
      failureReason: "The file is not a video.",
    });
    const [ofFailedVideo] = await owedClips(failedVideoId, [0], 2 * DAY);
    const [ofGoneVideo] = await owedClips(createId("video"), [0], 2 * DAY);
    await drainJobs(runtime);

    const report = await sweep();
    expect(report.cleared).toBeGreaterThanOrEqual(2);
    expect(await exists(activeRenderKey(ofFailedVideo!.clipId))).toBe(false);
    expect(await exists(activeRenderKey(ofGoneVideo!.clipId))).toBe(false);
    expect(await renderJobsFor([ofFailedVideo!.clipId, ofGoneVideo!.clipId])).toEqual([]);
  });

  it("removes an entry whose clip is gone", async () => {
    const clipId = clipIdFor(createId("video"), 0);
    await table.documentClient.send(
      new PutCommand({
        TableName: table.tableName,
        Item: {
          ...activeRenderKey(clipId),
          type: "ActiveRender",
          creatorId: createId("creator"),
          videoId: "vid_gone",
          clipId,
          revision: 0,
          status: "PENDING",
          updatedAt: ago(2 * DAY).toISOString(),
        },
      }),
    );
    expect((await sweep()).cleared).toBeGreaterThanOrEqual(1);
    expect(await exists(activeRenderKey(clipId))).toBe(false);
  });
});
