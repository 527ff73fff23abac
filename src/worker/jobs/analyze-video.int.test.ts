import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { beforeAll, describe, expect, it } from "vitest";
import { CLIP_RANK_SK_PREFIX, CLIP_SK_PREFIX, clipRankKey, creatorPk } from "@/db/keys";
import { findVideoChapters } from "@/db/repos/chapters-repo";
import {
  type Clip,
  editClip,
  findClipById,
  listClipsByVideo,
  renewClipRevision,
  setClipRenderStatus,
} from "@/db/repos/clip-repo";
import { DAILY_COUNTERS, type DailyCounter, listDailyAnalytics } from "@/db/repos/daily-analytics-repo";
import {
  findVideoById,
  holdVideoPipeline,
  releaseVideoPipeline,
  updateVideoStatus,
  type Video,
} from "@/db/repos/video-repo";
import { readTableRequest } from "@/db/testing/count-table-requests";
import type { ClipOptions } from "@/engine/clip-options";
import { combineSubscores, DEFAULT_SCORING_WEIGHTS } from "@/engine/scoring/weights";
import type { PlantedEvent } from "@/engine/testing/synthetic-video";
import { overlapSeconds } from "@/engine/time-ranges";
import type { SignalCurve } from "@/engine/types";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { MediaCommandError } from "@/media/run-ffmpeg";
import { deleteClip } from "@/server/clips/delete-clip";
import { tableOf } from "@/server/runtime";
import { recutVideo } from "@/server/videos/recut-video";
import { setVideoCaptions } from "@/server/videos/video-captions";
import {
  readAnalysisArtifact,
  readSignalsArtifact,
  writeSignalsArtifact,
} from "@/storage/analysis-artifacts";
import { headObject } from "@/storage/head-object";
import { deleteObjects, downloadObjectToFile, writeObject } from "@/storage/object-io";
import { analysisObjectKey, videoSourceFrameObjectKey, videoThumbnailObjectKey } from "@/storage/object-keys";
import { createQueuedTestVideo } from "@/worker/testing/create-queued-test-video";
import { createTestCreator, emailsTo } from "@/worker/testing/creator-emails";
import { provisionResources } from "../../../dev/provision";
import { childProcesses } from "../../../dev/test/child-processes";
import { testRuntime } from "../../../dev/test/runtime";
import { type JobContext, JobDeferredError, PermanentJobError } from "../job-types";
import { analyzeVideoJob } from "./analyze-video";
import { renderClipJob } from "./render-clip";

const runtime = testRuntime();
const table = tableOf(runtime);
const storage = { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName };

function jobContext(logs: string[], jobRuntime = runtime): JobContext {
  return {
    runtime: jobRuntime,
    signal: new AbortController().signal,
    attempt: 1,
    isFinalAttempt: false,
    holdMs: 120_000,
    log: (message) => logs.push(message),
  };
}

async function countItems(creatorId: string, prefix: string): Promise<number> {
  const output = await table.documentClient.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :prefix)",
      ExpressionAttributeValues: { ":pk": creatorPk(creatorId), ":prefix": prefix },
      Select: "COUNT",
    }),
  );
  return output.Count ?? 0;
}

/**
 * Sends SIGKILL to each child process of this one whose command line matches, as it appears
 * (polled every 5 ms); `stop` ends the watch and tells how many it killed.
 */
function killChildWhen(matches: (commandLine: string) => boolean) {
  const killed = new Set<number>();
  let watching = true;
  const watched = (async () => {
    while (watching) {
      for (const child of await childProcesses()) {
        if (killed.has(child.pid) || !matches(child.commandLine)) continue;
        process.kill(child.pid, "SIGKILL");
        killed.add(child.pid);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await watched;
      return killed.size;
    },
  };
}

/**
 * Holds every write (UpdateItem, TransactWriteItems) that names `videoId` until `reads` GetItems
 * naming it have been answered: requests still go to DynamoDB Local unchanged, only later.
 */
function holdWritesUntilReads(videoId: string, reads: number) {
  const name = `holdWrites-${videoId}`;
  let answered = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  table.documentClient.middlewareStack.add(
    (next) => async (args) => {
      const { operation, bodyText } = readTableRequest(args.request);
      if (!bodyText.includes(videoId)) return next(args);
      if (operation === "UpdateItem" || operation === "TransactWriteItems") await released;
      const result = await next(args);
      if (operation === "GetItem" && ++answered >= reads) release();
      return result;
    },
    { step: "finalizeRequest", name },
  );
  return {
    stop: () => {
      release();
      table.documentClient.middlewareStack.remove(name);
    },
  };
}

/** A video taken through its analysis job to READY, with the clips it got (two planted events: two). */
async function readyVideoWithClips() {
  const creator = await createTestCreator(runtime);
  const { video: ready } = await createQueuedTestVideo({
    runtime,
    creatorId: creator.creatorId,
    durationSeconds: 90,
  });
  const ref = { creatorId: ready.creatorId, videoId: ready.videoId };
  await analyzeVideoJob.run(ref, jobContext([]));
  const before = await listClipsByVideo({ table, ...ref, consistent: true });
  expect(before.length).toBeGreaterThan(1);
  return { ready, ref, before, creator };
}

/** The creator's daily counters from yesterday to tomorrow, summed (a run may pass midnight UTC). */
async function analyticsAroundToday(creatorId: string) {
  const day = (offsetDays: number) =>
    new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
  const days = await listDailyAnalytics({ table, creatorId, fromIsoDate: day(-1), toIsoDate: day(1) });
  const sum = (counter: DailyCounter) => days.reduce((total, daily) => total + daily[counter], 0);
  return Object.fromEntries(DAILY_COUNTERS.map((counter) => [counter, sum(counter)])) as Record<
    DailyCounter,
    number
  >;
}

/** The creator asks the ready video for other clips, and its job runs: the job's log lines. */
async function askForOtherClips(
  ref: { creatorId: string; videoId: string },
  clipOptions: ClipOptions,
): Promise<string[]> {
  await recutVideo({ runtime, ...ref, body: { clipOptions } });
  const logs: string[] = [];
  await analyzeVideoJob.run(ref, jobContext(logs));
  return logs;
}

async function analyzeTempDirs(): Promise<string[]> {
  return (await readdir(os.tmpdir())).filter((name) => name.startsWith("truss-analyze-"));
}

/** Work directories made since `before` and still there (another process's may come and go). */
async function leftSince(before: string[]): Promise<string[]> {
  return (await analyzeTempDirs()).filter((name) => !before.includes(name));
}

describe("analyze-video job", () => {
  let video: Video;
  let events: PlantedEvent[];
  let firstRun: { clips: Clip[]; tempDirsBefore: string[]; logs: string[] };

  beforeAll(async () => {
    ({ video, events } = await createQueuedTestVideo({ runtime, durationSeconds: 60 }));
    // Its check left a frame of the source as its thumbnail, which its best clip's replaces.
    const frameKey = videoSourceFrameObjectKey(video.creatorId, video.videoId);
    await writeObject({ ...storage, key: frameKey, body: Buffer.from("a frame"), contentType: "image/jpeg" });
    video = await updateVideoStatus({
      table,
      creatorId: video.creatorId,
      videoId: video.videoId,
      from: ["QUEUED"],
      to: "QUEUED",
      set: { thumbnailKey: frameKey },
    });
    // The creator gave a subtitle file before the analysis: no clips to re-render yet.
    const captions = await setVideoCaptions({
      runtime,
      creatorId: video.creatorId,
      videoId: video.videoId,
      fileName: "talk.srt",
      text: "1\n00:00:12,000 --> 00:00:15,500\nHere it comes\n\n2\n00:00:45,000 --> 00:00:47,000\nLater on\n",
    });
    expect(captions.clipsRerendering).toBe(0);
    const tempDirsBefore = await analyzeTempDirs();
    const logs: string[] = [];
    await analyzeVideoJob.run({ creatorId: video.creatorId, videoId: video.videoId }, jobContext(logs));
    const clips = await listClipsByVideo({
      table,
      creatorId: video.creatorId,
      videoId: video.videoId,
      consistent: true,
    });
    firstRun = { clips, tempDirsBefore, logs };
    // Renders take both cores; on a busy machine this first full run is the slow part.
  }, 300_000);

  it("takes a QUEUED video to READY with rendered 9:16 clips, chapters and stored stage results", async () => {
    const ready = await findVideoById({
      table,
      creatorId: video.creatorId,
      videoId: video.videoId,
      consistent: true,
    });
    const { clips } = firstRun;
    expect(ready).toMatchObject({ status: "READY", progressPercent: 100, clipCount: clips.length });
    expect(ready?.analysis).toEqual({ analyzer: "local", fallbackReason: null });
    expect(clips.length).toBeGreaterThanOrEqual(1);

    // The creator's subtitles were burned into the best clip, and are read from their file at
    // render time rather than kept in the stored analysis (so a new or removed file counts).
    expect(firstRun.logs.some((line) => /^render: captions: \d+ cards burned in$/.test(line))).toBe(true);
    // The file was downloaded once, for the measuring, and the clips cut from that copy.
    expect(firstRun.logs.filter((line) => /download/.test(line))).toEqual(["downloading the video"]);
    expect((await readAnalysisArtifact({ ...storage, ...video }))?.transcript).toEqual([]);

    // The best clip covers the planted event (10–30 s) with boundaries within 3 s.
    const event = events[0]!;
    const best = clips[0]!;
    expect(Math.abs(best.startSeconds - event.startSeconds)).toBeLessThanOrEqual(3);
    expect(Math.abs(best.endSeconds - event.endSeconds)).toBeLessThanOrEqual(3);

    for (const clip of clips) {
      expect(clip).toMatchObject({
        status: "READY",
        revision: 0,
        render: { revision: 0, width: 1080, height: 1920 },
      });
      for (const key of [clip.render!.videoKey, clip.render!.thumbnailKey, clip.render!.previewKey]) {
        expect(await headObject({ ...storage, key }), key).toBeDefined();
      }
    }
    expect(ready?.thumbnailKey).toBe(videoThumbnailObjectKey(video.creatorId, video.videoId));
    expect(await headObject({ ...storage, key: ready!.thumbnailKey! })).toMatchObject({
      sizeBytes: (await headObject({ ...storage, key: clips[0]!.render!.thumbnailKey }))?.sizeBytes,
    });

    // The rendered file really is a 1080×1920 clip of the clip's length.
    const downloadDir = path.join(os.tmpdir(), `truss-test-clip-${process.pid}`);
    try {
      const { mkdir } = await import("node:fs/promises");
      await mkdir(downloadDir, { recursive: true });
      const filePath = path.join(downloadDir, "clip.mp4");
      await downloadObjectToFile({ ...storage, key: best.render!.videoKey, filePath });
      const probe = await probeMedia({ binaries: resolveMediaBinaries(), input: filePath });
      expect(probe).toMatchObject({ width: 1080, height: 1920, videoCodec: "h264", audioCodec: "aac" });
      expect(probe.durationSeconds).toBeCloseTo(best.endSeconds - best.startSeconds, 0);
    } finally {
      await rm(downloadDir, { recursive: true, force: true });
    }

    const chapters = await findVideoChapters({ table, creatorId: video.creatorId, videoId: video.videoId });
    expect(chapters?.chapters.length).toBeGreaterThanOrEqual(1);
    expect(chapters?.interestCurve.values.length).toBeGreaterThanOrEqual(50);
    for (const name of ["signals", "analysis"]) {
      expect(
        await headObject({ ...storage, key: analysisObjectKey(video.creatorId, video.videoId, name) }),
      ).toBeDefined();
    }
    // Every clip has exactly one rank item.
    expect(await countItems(video.creatorId, CLIP_SK_PREFIX)).toBe(clips.length);
    expect(await countItems(video.creatorId, CLIP_RANK_SK_PREFIX)).toBe(clips.length);
    // No work directory left behind.
    expect(await leftSince(firstRun.tempDirsBefore)).toEqual([]);
  });

  it("treats a redelivered job for a READY video as done", async () => {
    const logs: string[] = [];
    await analyzeVideoJob.run({ creatorId: video.creatorId, videoId: video.videoId }, jobContext(logs));
    expect(logs.join("\n")).toMatch(/READY; nothing to do/);
    const clips = await listClipsByVideo({
      table,
      creatorId: video.creatorId,
      videoId: video.videoId,
      consistent: true,
    });
    expect(clips).toEqual(firstRun.clips);
  });

  it("retries instead of failing the video when its signal pass's ffmpeg is killed from outside", async () => {
    const { video: queued } = await createQueuedTestVideo({ runtime, durationSeconds: 90 });
    const ref = { creatorId: queued.creatorId, videoId: queued.videoId };
    // The kernel's OOM killer, played by this test: SIGKILL to the signal pass as it starts.
    const watch = killChildWhen((commandLine) => commandLine.includes("[voiceband]"));
    const failure = await analyzeVideoJob.run(ref, jobContext([])).then(
      () => null,
      (error: unknown) => error,
    );
    expect(await watch.stop()).toBe(1);
    expect(failure).toBeInstanceOf(MediaCommandError);
    expect(failure).not.toBeInstanceOf(PermanentJobError);
    // Let go of, so the retry need not wait for the failed run's hold to lapse.
    expect(await findVideoById({ table, ...ref, consistent: true })).toMatchObject({
      status: "ANALYZING",
      pipelineRunId: null,
      pipelineHeldUntil: null,
    });
    // The retry the consumer makes of it.
    await analyzeVideoJob.run(ref, jobContext([]));
    expect((await findVideoById({ table, ...ref, consistent: true }))?.status).toBe("READY");
  });

  it("leaves a QUEUED video to the one of two deliveries that started it, and forgets its stalls once ready", async () => {
    const { video: queued } = await createQueuedTestVideo({ runtime, durationSeconds: 40 });
    const ref = { creatorId: queued.creatorId, videoId: queued.videoId };
    // It had stalled twice before (the sweep counts): a run that makes it ready starts anew.
    await updateVideoStatus({ table, ...ref, from: ["QUEUED"], to: "QUEUED", set: { requeueCount: 2 } });
    // Two copies of the job (the sweep queued one more while it waited), taken by two workers
    // at the same moment: both find it QUEUED. The table holds writes to the video until both
    // reads are answered, so neither reads after the other's move whatever the timing.
    const logs: [string[], string[]] = [[], []];
    const barrier = holdWritesUntilReads(queued.videoId, 2);
    try {
      await Promise.all(logs.map((lines) => analyzeVideoJob.run(ref, jobContext(lines))));
    } finally {
      barrier.stop();
    }
    const leftIt = logs.map((lines) =>
      lines.some((line) => line.includes("another delivery has just started")),
    );
    expect(leftIt.sort()).toEqual([false, true]);
    expect(await findVideoById({ table, ...ref, consistent: true })).toMatchObject({
      status: "READY",
      requeueCount: 0,
    });
  });

  it("sends back a copy that finds the video held by a run on another worker, and runs it once that run lets go", async () => {
    const { creatorId, videoId } = video;
    const ids = { table, creatorId, videoId };
    // A run on another worker is rendering it (the sweep, or SQS, made a second copy of its job).
    await updateVideoStatus({ ...ids, from: ["READY"], to: "RENDERING" });
    expect(await holdVideoPipeline({ ...ids, runId: "other-worker", holdMs: 60_000 })).toEqual({
      kind: "held",
    });
    const before = await findVideoById({ ...ids, consistent: true });
    const deferred = await analyzeVideoJob.run({ creatorId, videoId }, jobContext([])).then(
      () => null,
      (error: unknown) => error,
    );
    expect(deferred).toBeInstanceOf(JobDeferredError);
    // Tried again when the other run's hold would lapse, should its worker die.
    expect((deferred as JobDeferredError).retryAfterSeconds).toBeGreaterThan(50);
    expect((deferred as JobDeferredError).retryAfterSeconds).toBeLessThanOrEqual(61);
    expect(await findVideoById({ ...ids, consistent: true })).toEqual(before);

    await releaseVideoPipeline({ ...ids, runId: "other-worker" });
    const logs: string[] = [];
    await analyzeVideoJob.run({ creatorId, videoId }, jobContext(logs));
    expect(await findVideoById({ ...ids, consistent: true })).toMatchObject({
      status: "READY",
      pipelineRunId: null,
      pipelineHeldUntil: null,
    });
    expect(logs.filter((line) => line.startsWith("render: layout"))).toEqual([]);
  });

  it("leaves giving up a video to later while another run holds it", async () => {
    const { video: queued } = await createQueuedTestVideo({ runtime, durationSeconds: 20 });
    const ids = { table, creatorId: queued.creatorId, videoId: queued.videoId };
    await updateVideoStatus({ ...ids, from: ["QUEUED"], to: "ANALYZING" });
    // This job's last attempt ended with its worker, and a copy of the job runs on another one.
    expect(await holdVideoPipeline({ ...ids, runId: "other-worker", holdMs: 30_000 })).toEqual({
      kind: "held",
    });
    const giveUp = () =>
      analyzeVideoJob.onGiveUp!(
        { creatorId: ids.creatorId, videoId: ids.videoId },
        jobContext([]),
        "It died.",
      );
    const deferred = await giveUp().then(
      () => null,
      (error: unknown) => error,
    );
    expect(deferred).toBeInstanceOf(JobDeferredError);
    expect((deferred as JobDeferredError).retryAfterSeconds).toBeGreaterThan(25);
    expect((await findVideoById({ ...ids, consistent: true }))?.status).toBe("ANALYZING");
    // That run has ended without a verdict (its hold let go, or lapsed): the video is failed now.
    await releaseVideoPipeline({ ...ids, runId: "other-worker" });
    await giveUp();
    expect(await findVideoById({ ...ids, consistent: true })).toMatchObject({
      status: "FAILED",
      failureReason: "It died.",
    });
  });

  it("stops a run whose hold another run took over, leaving the video to that run", async () => {
    const { creatorId, videoId } = video;
    const ids = { table, creatorId, videoId };
    const unfinished = firstRun.clips.at(-1)!;
    await updateVideoStatus({ ...ids, from: ["READY"], to: "RENDERING" });
    await setClipRenderStatus({
      ...ids,
      clipId: unfinished.clipId,
      revision: 0,
      status: "FAILED",
      failureReason: "killed",
    });
    const tempDirsBefore = await analyzeTempDirs();
    const logs: string[] = [];
    // A hold of 0.6 s, renewed every 0.2 s.
    const running = analyzeVideoJob.run({ creatorId, videoId }, { ...jobContext(logs), holdMs: 600 });
    await expect
      .poll(async () => (await findVideoById({ ...ids, consistent: true }))?.stage, { interval: 50 })
      .toMatch(/^Rendering clip/);
    // This run's worker stalled past its hold (a pause, a lost network), and another run took
    // the video meanwhile: to the other run, the hold had lapsed.
    const takenAt = new Date(Date.now() + 700);
    expect(await holdVideoPipeline({ ...ids, runId: "other-worker", holdMs: 60_000, now: takenAt })).toEqual({
      kind: "held",
    });
    await running;
    expect(logs).toContain("another run has taken this video over; stopping");
    expect(await findVideoById({ ...ids, consistent: true })).toMatchObject({
      status: "RENDERING",
      pipelineRunId: "other-worker",
    });
    expect(await leftSince(tempDirsBefore)).toEqual([]);

    // The other run's work, done here: the video ends READY with its clips, none twice.
    await releaseVideoPipeline({ ...ids, runId: "other-worker" });
    await analyzeVideoJob.run({ creatorId, videoId }, jobContext([]));
    const after = await listClipsByVideo({ ...ids, consistent: true });
    expect(after.map((clip) => [clip.clipId, clip.status])).toEqual(
      firstRun.clips.map((clip) => [clip.clipId, "READY"]),
    );
    expect(await countItems(creatorId, CLIP_SK_PREFIX)).toBe(after.length);
  }, 240_000);

  it("resumes mid-render: skips analysis, re-renders only the unfinished clip, never duplicates", async () => {
    const { creatorId, videoId } = video;
    const unfinished = firstRun.clips.at(-1)!;
    // The state a worker killed mid-render leaves: the video RENDERING, one clip not READY.
    await updateVideoStatus({ table, creatorId, videoId, from: ["READY"], to: "RENDERING" });
    await setClipRenderStatus({
      table,
      creatorId,
      clipId: unfinished.clipId,
      revision: 0,
      status: "FAILED",
      failureReason: "killed",
    });
    const logs: string[] = [];
    await analyzeVideoJob.run({ creatorId, videoId }, jobContext(logs));
    // A RENDERING video goes straight to the render stage: one clip's render, nothing else.
    expect(logs.filter((line) => line.startsWith("render: layout"))).toHaveLength(1);
    expect(logs.join("\n")).not.toMatch(/analysis already stored/);

    const after = await listClipsByVideo({ table, creatorId, videoId, consistent: true });
    expect(after.map((clip) => clip.clipId)).toEqual(firstRun.clips.map((clip) => clip.clipId));
    for (const [index, clip] of after.entries()) {
      expect(clip.status).toBe("READY");
      const before = firstRun.clips[index]!;
      if (clip.clipId === unfinished.clipId)
        expect(clip.render!.renderedAt > before.render!.renderedAt).toBe(true);
      else expect(clip.render).toEqual(before.render);
    }
    expect(await countItems(creatorId, CLIP_SK_PREFIX)).toBe(after.length);
    expect(await countItems(creatorId, CLIP_RANK_SK_PREFIX)).toBe(after.length);
    const ready = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(ready).toMatchObject({ status: "READY", clipCount: after.length });
  }, 240_000);

  it("re-runs a re-queued video from its stored analysis without re-rendering anything", async () => {
    const { creatorId, videoId } = video;
    const before = await listClipsByVideo({ table, creatorId, videoId, consistent: true });
    await updateVideoStatus({ table, creatorId, videoId, from: ["READY"], to: "QUEUED" });
    const logs: string[] = [];
    await analyzeVideoJob.run({ creatorId, videoId }, jobContext(logs));
    expect(logs.join("\n")).toMatch(/analysis already stored/);
    const after = await listClipsByVideo({ table, creatorId, videoId, consistent: true });
    expect(after.map((clip) => clip.render)).toEqual(before.map((clip) => clip.render));
    expect(await countItems(creatorId, CLIP_SK_PREFIX)).toBe(before.length);
    expect(await countItems(creatorId, CLIP_RANK_SK_PREFIX)).toBe(before.length);
    expect((await findVideoById({ table, creatorId, videoId, consistent: true }))?.status).toBe("READY");
  });

  it("scores and titles a clip again from the captions it now shows, and leaves them as they are when the captions are the same", async () => {
    const { creatorId, videoId } = video;
    const clipId = firstRun.clips[0]!.clipId;
    const scoreOf = (clip: Clip | undefined) => ({
      score: clip?.score,
      subscores: clip?.subscores,
      reasons: clip?.reasons,
      title: clip?.title,
    });
    const renderRevision = async (revision: number) => {
      await renderClipJob.run({ creatorId, videoId, clipId, revision }, jobContext([]));
      const rendered = await findClipById({ table, creatorId, clipId, consistent: true });
      expect(rendered).toMatchObject({ status: "READY", render: { revision } });
      return rendered!;
    };
    const before = (await findClipById({ table, creatorId, clipId, consistent: true }))!;
    // The analysis saw two short captions: little of the clip is covered.
    expect(before.subscores.speech).toBeLessThan(50);

    // Rendered again with the same captions: scored again, to the same figures.
    const renewed = await renewClipRevision({ table, creatorId, clipId });
    expect(scoreOf(await renderRevision(renewed.revision))).toEqual(scoreOf(before));

    // A subtitle file that covers the whole video: the clip is re-rendered and its speech
    // sub-score is now the captions' coverage, as it would have been at analysis time. The
    // re-render jobs go to a queue of this test's own, so no other test file receives them.
    const ownQueue = testRuntime({ TRUSS_QUEUE_NAME: `truss-test-rescore-${process.pid}` });
    await provisionResources({
      aws: ownQueue.config.aws,
      appOrigin: ownQueue.config.appUrl,
      ...ownQueue.clients,
    });
    const cue = (index: number) => {
      const stamp = (seconds: number) => `00:00:${String(seconds).padStart(2, "0")},000`;
      return `${index + 1}\n${stamp(index * 2)} --> ${stamp(index * 2 + 2)}\nLine ${index + 1}\n`;
    };
    const wholeVideo = Array.from({ length: 30 }, (_, index) => cue(index)).join("\n");
    const captioned = await setVideoCaptions({
      runtime: ownQueue,
      creatorId,
      videoId,
      fileName: "all.srt",
      text: wholeVideo,
    });
    expect(captioned.clipsRerendering).toBe(firstRun.clips.length);
    const current = (await findClipById({ table, creatorId, clipId, consistent: true }))!;
    const after = await renderRevision(current.revision);
    expect(after.subscores.speech).toBe(100);
    expect(after.score).toBeGreaterThan(before.score);
    // Talk now carries the clip, and its title quotes the captions.
    expect(after.title).toMatch(/^“Line \d+/);
    expect(after.reasons.map((reason) => reason.text).join(" ")).toMatch(/Talk covers 100% of the clip/);
    // Its rank item moved with it: one per clip, at the new score.
    expect(await countItems(creatorId, CLIP_RANK_SK_PREFIX)).toBe(firstRun.clips.length);
    expect(await countItems(creatorId, clipRankKey(creatorId, after.score, clipId).SK)).toBe(1);
  }, 240_000);

  it("clips a stream capture (MPEG-TS, its clock at one hour) from a copy that cuts exactly", async () => {
    const { video: capture, events: planted } = await createQueuedTestVideo({
      runtime,
      durationSeconds: 40,
      asStreamCapture: true,
    });
    expect(capture.probe?.formatName).toBe("mpegts");
    const tempDirsBefore = await analyzeTempDirs();
    await analyzeVideoJob.run({ creatorId: capture.creatorId, videoId: capture.videoId }, jobContext([]));
    const ready = await findVideoById({ table, ...capture, consistent: true });
    expect(ready).toMatchObject({ status: "READY" });
    const clips = await listClipsByVideo({ table, ...capture, consistent: true });
    // The planted event on the video's own clock (from zero), as in the MP4 it was made from.
    const best = clips[0]!;
    expect(Math.abs(best.startSeconds - planted[0]!.startSeconds)).toBeLessThanOrEqual(3);
    expect(Math.abs(best.endSeconds - planted[0]!.endSeconds)).toBeLessThanOrEqual(3);
    const downloadDir = await mkdtemp(path.join(os.tmpdir(), "truss-test-capture-"));
    try {
      for (const clip of clips) {
        expect(clip.status).toBe("READY");
        const filePath = path.join(downloadDir, `${clip.clipId}.mp4`);
        await downloadObjectToFile({ ...storage, key: clip.render!.videoKey, filePath });
        const probe = await probeMedia({ binaries: resolveMediaBinaries(), input: filePath });
        expect(probe.durationSeconds).toBeCloseTo(clip.endSeconds - clip.startSeconds, 1);
      }
      // The copy is stored once, beside the source.
      expect(ready!.seekableCopyKey).toMatch(/seekable-copy\.mkv$/);
      const copyPath = path.join(downloadDir, "seekable-copy.mkv");
      await downloadObjectToFile({ ...storage, key: ready!.seekableCopyKey!, filePath: copyPath });
      const copyProbe = await probeMedia({ binaries: resolveMediaBinaries(), input: copyPath });
      expect(copyProbe.formatName).toContain("matroska");
      expect(copyProbe.durationSeconds).toBeCloseTo(capture.probe!.durationSeconds, 0);

      // An edited range re-renders from the stored copy, over HTTP: without the capture itself
      // (deleted here) it still renders. 10.5 s is mid-way between keyframes.
      await deleteObjects({ ...storage, keys: [capture.sourceKey] });
      const edited = await editClip({
        table,
        creatorId: capture.creatorId,
        clipId: best.clipId,
        expectedVersion: best.version,
        startSeconds: 10.5,
        endSeconds: 26,
        layoutChoice: "auto",
      });
      await renderClipJob.run(
        {
          creatorId: capture.creatorId,
          videoId: capture.videoId,
          clipId: best.clipId,
          revision: edited.revision,
        },
        jobContext([]),
      );
      const rerendered = await findClipById({ table, creatorId: capture.creatorId, clipId: best.clipId });
      expect(rerendered).toMatchObject({ status: "READY", render: { revision: 1, startSeconds: 10.5 } });
      const filePath = path.join(downloadDir, "edited.mp4");
      await downloadObjectToFile({ ...storage, key: rerendered!.render!.videoKey, filePath });
      const probe = await probeMedia({ binaries: resolveMediaBinaries(), input: filePath });
      expect(probe.durationSeconds).toBeCloseTo(15.5, 1);

      // A job resumed mid-render reads the stored copy too (the capture is gone).
      await updateVideoStatus({ table, ...capture, from: ["READY"], to: "RENDERING" });
      await setClipRenderStatus({
        table,
        creatorId: capture.creatorId,
        clipId: best.clipId,
        revision: edited.revision,
        status: "FAILED",
        failureReason: "killed",
      });
      await analyzeVideoJob.run({ creatorId: capture.creatorId, videoId: capture.videoId }, jobContext([]));
      const resumed = await findClipById({ table, creatorId: capture.creatorId, clipId: best.clipId });
      expect(resumed).toMatchObject({ status: "READY", render: { revision: edited.revision } });
      expect(resumed!.render!.renderedAt > rerendered!.render!.renderedAt).toBe(true);
      expect(await findVideoById({ table, ...capture, consistent: true })).toMatchObject({ status: "READY" });
    } finally {
      await rm(downloadDir, { recursive: true, force: true });
    }
    expect(await leftSince(tempDirsBefore)).toEqual([]);
  }, 180_000);

  it("scores with the configured weights, in the analysis and when an edited clip is scored again", async () => {
    const loudnessOnly = testRuntime({
      TRUSS_SCORING_WEIGHTS: "audioEnergy=1,hook=0,visualDynamics=0,speech=0,chat=0",
    });
    const { video: weighted } = await createQueuedTestVideo({ runtime: loudnessOnly });
    const ref = { creatorId: weighted.creatorId, videoId: weighted.videoId };
    await analyzeVideoJob.run(ref, jobContext([], loudnessOnly));
    const [best] = await listClipsByVideo({ table, ...ref, consistent: true });
    expect(best).toBeDefined();
    expect(best!.score).toBe(best!.subscores.audioEnergy);
    // Under the default weights the same sub-scores make another score.
    expect(combineSubscores(best!.subscores, DEFAULT_SCORING_WEIGHTS)).not.toBe(best!.score);

    const edited = await editClip({
      table,
      creatorId: weighted.creatorId,
      clipId: best!.clipId,
      expectedVersion: best!.version,
      startSeconds: best!.startSeconds + 2,
      endSeconds: best!.endSeconds,
      layoutChoice: "fit",
    });
    await renderClipJob.run(
      { ...ref, clipId: best!.clipId, revision: edited.revision },
      jobContext([], loudnessOnly),
    );
    const rescored = await findClipById({ table, creatorId: weighted.creatorId, clipId: best!.clipId });
    expect(rescored).toMatchObject({ status: "READY", startSeconds: best!.startSeconds + 2 });
    expect(rescored!.score).toBe(rescored!.subscores.audioEnergy);
    expect(combineSubscores(rescored!.subscores, DEFAULT_SCORING_WEIGHTS)).not.toBe(rescored!.score);
  }, 180_000);

  it("makes the clips the creator asked for: how many at most, and how long", async () => {
    const clipOptions = { count: 1, minSeconds: 30, maxSeconds: 40 };
    const { video: asked } = await createQueuedTestVideo({ runtime, clipOptions });
    await analyzeVideoJob.run({ creatorId: asked.creatorId, videoId: asked.videoId }, jobContext([]));
    const clips = await listClipsByVideo({ table, ...asked, consistent: true });
    expect(clips).toHaveLength(1);
    const lengthSeconds = clips[0]!.endSeconds - clips[0]!.startSeconds;
    expect(lengthSeconds).toBeGreaterThanOrEqual(30 - 1e-6);
    expect(lengthSeconds).toBeLessThanOrEqual(40 + 1e-6);
    expect(clips[0]).toMatchObject({ status: "READY" });
  }, 120_000);

  it("asked for other clips once ready, finds them again from the stored signals and replaces the old ones", async () => {
    const { ready, ref, before, creator } = await readyVideoWithClips();
    // The creator was emailed once it was ready: its clips, best first, and a link to its page.
    const [readyEmail, ...more] = await emailsTo(runtime, creator.email);
    expect(more).toEqual([]);
    const best = [...before].sort((a, b) => b.score - a.score)[0]!;
    expect(readyEmail).toMatchObject({
      subject: `${before.length} clips from “${ready.filename}” are ready`,
      text: expect.stringContaining(`- ${best.title} (`),
    });
    expect(readyEmail!.text).toContain(`${runtime.config.appUrl}/videos/${ready.videoId}\n`);
    // The video was counted in the day's analytics when it became ready (its creator's only one).
    const countedWhenReady = await analyticsAroundToday(ready.creatorId);
    expect(countedWhenReady).toMatchObject({ videosProcessed: 1, clipsCreated: before.length });
    expect(countedWhenReady.minutesAnalyzed).toBeCloseTo(ready.probe!.durationSeconds / 60, 1);

    const { video: queued } = await recutVideo({
      runtime,
      ...ref,
      body: { clipOptions: { count: 1, minSeconds: 30, maxSeconds: 40 } },
    });
    expect(queued).toMatchObject({ status: "QUEUED", clipOptions: { count: 1, minSeconds: 30 } });
    // Marked, to see the stored signals used as they are rather than measured again.
    const signals = await readSignalsArtifact({ ...storage, ...ref });
    await writeSignalsArtifact({
      ...storage,
      ...ref,
      signals: { ...signals!, marker: "stored" } as SignalCurve,
    });
    const logs: string[] = [];
    await analyzeVideoJob.run(ref, jobContext(logs));
    expect(logs).toContain("other clips asked for; finding them again");
    expect(await readSignalsArtifact({ ...storage, ...ref })).toMatchObject({ marker: "stored" });

    const after = await listClipsByVideo({ table, ...ref, consistent: true });
    expect(after).toHaveLength(1);
    // The renders of the clips no longer wanted are gone with them.
    const removedRenders = before
      .filter((clip) => clip.clipId !== after[0]!.clipId)
      .flatMap(({ render }) => (render ? [render.videoKey, render.thumbnailKey, render.previewKey] : []));
    expect(removedRenders.length).toBeGreaterThan(0);
    for (const key of removedRenders) expect(await headObject({ ...storage, key })).toBeUndefined();
    const lengthSeconds = after[0]!.endSeconds - after[0]!.startSeconds;
    expect(lengthSeconds).toBeGreaterThanOrEqual(30 - 1e-6);
    expect(lengthSeconds).toBeLessThanOrEqual(40 + 1e-6);
    expect(after[0]).toMatchObject({ status: "READY", render: { startSeconds: after[0]!.startSeconds } });
    expect(await countItems(ready.creatorId, CLIP_SK_PREFIX)).toBe(1);
    expect(await findVideoById({ table, ...ref, consistent: true })).toMatchObject({
      status: "READY",
      clipCount: 1,
    });
    // Ready again, it is not a second video processed (before, every request counted it again).
    expect(await analyticsAroundToday(ready.creatorId)).toEqual(countedWhenReady);
    // A redelivered job finds the analysis made for these options and leaves it.
    const again: string[] = [];
    await analyzeVideoJob.run(ref, jobContext(again));
    expect(again.some((line) => /nothing to do/.test(line))).toBe(true);
    // The creator asked for these clips on the video's page: no second email.
    expect(await emailsTo(runtime, creator.email)).toEqual([readyEmail]);
  }, 240_000);

  it("keeps a clip the creator trimmed when other clips are asked for, and finds the one asked for beside it", async () => {
    const { ready, ref, before } = await readyVideoWithClips();
    // The creator trims the last clip: its ordinal is past the one clip asked for below, and its
    // moment is among the best (before, a recut deleted it, or gave its id to another moment).
    const last = before.at(-1)!;
    const trimmed = await editClip({
      table,
      creatorId: ready.creatorId,
      clipId: last.clipId,
      expectedVersion: last.version,
      startSeconds: last.startSeconds + 2,
      endSeconds: last.endSeconds,
      layoutChoice: last.layoutChoice,
    });
    await renderClipJob.run({ ...ref, clipId: last.clipId, revision: trimmed.revision }, jobContext([]));

    const recutLogs = await askForOtherClips(ref, { count: 1, minSeconds: 30, maxSeconds: 40 });
    // The new clip was cut from the stored file over HTTP: nothing was measured again, so
    // nothing needed the whole file downloaded.
    expect(recutLogs.filter((line) => /download/.test(line))).toEqual([]);

    const after = await listClipsByVideo({ table, ...ref, consistent: true });
    // The trimmed clip stays as the creator cut it, render and all.
    const kept = after.find((clip) => clip.clipId === last.clipId);
    expect(kept).toMatchObject({
      startSeconds: last.startSeconds + 2,
      endSeconds: last.endSeconds,
      rangeEditedAt: trimmed.rangeEditedAt,
      status: "READY",
      render: { startSeconds: last.startSeconds + 2 },
    });
    expect(await headObject({ ...storage, key: kept!.render!.videoKey })).toBeDefined();
    // Beside it, the one clip asked for, of the length asked for, and not a second copy of the
    // trimmed moment: the next best stands in for it.
    const found = after.filter((clip) => clip.clipId !== last.clipId);
    expect(found).toHaveLength(1);
    const [clip] = found;
    expect(overlapSeconds(clip!, kept!)).toBeLessThanOrEqual(0.5);
    expect(clip!.endSeconds - clip!.startSeconds).toBeGreaterThanOrEqual(30 - 1e-6);
    expect(clip!.endSeconds - clip!.startSeconds).toBeLessThanOrEqual(40 + 1e-6);
    expect(clip).toMatchObject({ ordinal: 0, status: "READY", render: { startSeconds: clip!.startSeconds } });
    expect(await countItems(ready.creatorId, CLIP_SK_PREFIX)).toBe(2);
    expect(await findVideoById({ table, ...ref, consistent: true })).toMatchObject({
      status: "READY",
      clipCount: 2,
    });

    // Asked again for the same, with the same clip trimmed: the stored analysis (two moments
    // asked of it, for one clip beside one trimmed) is the one to use, and nothing changes.
    const again = await askForOtherClips(ref, { count: 1, minSeconds: 30, maxSeconds: 40 });
    expect(again).toContain("analysis already stored; skipping signals and analysis");
    const unchanged = await listClipsByVideo({ table, ...ref, consistent: true });
    expect(unchanged.map((c) => [c.clipId, c.startSeconds, c.endSeconds, c.revision])).toEqual(
      after.map((c) => [c.clipId, c.startSeconds, c.endSeconds, c.revision]),
    );
  }, 240_000);

  it("keeps a clip the creator gave a layout when other clips are asked for, instead of passing the layout on", async () => {
    const { ready, ref, before } = await readyVideoWithClips();
    // The creator keeps the best clip's range and asks for the whole frame.
    const best = before[0]!;
    const framed = await editClip({
      table,
      creatorId: ready.creatorId,
      clipId: best.clipId,
      expectedVersion: best.version,
      startSeconds: best.startSeconds,
      endSeconds: best.endSeconds,
      layoutChoice: "fit",
    });
    await renderClipJob.run({ ...ref, clipId: best.clipId, revision: framed.revision }, jobContext([]));

    await askForOtherClips(ref, { count: 1, minSeconds: 30, maxSeconds: 40 });

    const after = await listClipsByVideo({ table, ...ref, consistent: true });
    // Before, the moment found first took its id, range and all, and was rendered in the whole
    // frame the creator chose for another moment.
    expect(after.find((clip) => clip.clipId === best.clipId)).toMatchObject({
      startSeconds: best.startSeconds,
      endSeconds: best.endSeconds,
      layoutChoice: "fit",
      status: "READY",
      render: { revision: framed.revision, layout: "fit" },
    });
    const found = after.filter((clip) => clip.clipId !== best.clipId);
    expect(found.length).toBeLessThanOrEqual(1);
    for (const clip of found) {
      expect(clip.layoutChoice).toBe("auto");
      expect(overlapSeconds(clip, best)).toBeLessThanOrEqual(0.5);
      expect(clip.endSeconds - clip.startSeconds).toBeGreaterThanOrEqual(30 - 1e-6);
    }
    expect(await findVideoById({ table, ...ref, consistent: true })).toMatchObject({
      status: "READY",
      clipCount: after.length,
    });
  }, 240_000);

  it("does not bring back a clip the creator deleted when other clips are asked for", async () => {
    const { ready, ref, before } = await readyVideoWithClips();
    const best = before[0]!;
    await deleteClip({ runtime, creatorId: ready.creatorId, clipId: best.clipId });

    // Asked for as many clips as before: before, the deleted best moment came back first.
    await askForOtherClips(ref, { ...ready.clipOptions, count: before.length });

    const after = await listClipsByVideo({ table, ...ref, consistent: true });
    expect(after.length).toBeGreaterThan(0);
    for (const clip of after) {
      expect(overlapSeconds(clip, best), clip.clipId).toBeLessThanOrEqual(0.5);
    }
    expect(await findVideoById({ table, ...ref, consistent: true })).toMatchObject({
      status: "READY",
      clipCount: after.length,
      deletedClipRanges: [{ startSeconds: best.startSeconds, endSeconds: best.endSeconds }],
    });
  }, 240_000);

  it("makes a video shorter than the automatic 15 s minimum one clip: all of it", async () => {
    const { video: short } = await createQueuedTestVideo({ runtime, durationSeconds: 8 });
    await analyzeVideoJob.run({ creatorId: short.creatorId, videoId: short.videoId }, jobContext([]));
    const clips = await listClipsByVideo({
      table,
      creatorId: short.creatorId,
      videoId: short.videoId,
      consistent: true,
    });
    expect(clips).toHaveLength(1);
    expect(clips[0]).toMatchObject({ status: "READY", startSeconds: 0 });
    expect(clips[0]!.endSeconds).toBeCloseTo(8, 0);
    const ready = await findVideoById({ table, ...short, consistent: true });
    expect(ready).toMatchObject({ status: "READY", clipCount: 1 });
  }, 120_000);

  it("fails a video too short for any clip, with the reason, and emails it unless the creator said not to", async () => {
    for (const emailWhenClipsReady of [true, false]) {
      const creator = await createTestCreator(runtime, { emailWhenClipsReady });
      const { video: short } = await createQueuedTestVideo({
        runtime,
        creatorId: creator.creatorId,
        durationSeconds: 2,
      });
      const context = jobContext([]);
      const run = analyzeVideoJob.run({ creatorId: short.creatorId, videoId: short.videoId }, context);
      await expect(run).rejects.toThrow(/2 s long; a clip needs at least 3 s/);
      const reason = await run.then(
        () => "",
        (error: Error) => error.message,
      );
      await analyzeVideoJob.onGiveUp?.(
        { creatorId: short.creatorId, videoId: short.videoId },
        context,
        reason,
      );
      const failed = await findVideoById({
        table,
        creatorId: short.creatorId,
        videoId: short.videoId,
        consistent: true,
      });
      expect(failed).toMatchObject({
        status: "FAILED",
        failureReason: expect.stringMatching(/needs at least 3 s/),
      });
      const emails = await emailsTo(runtime, creator.email);
      if (!emailWhenClipsReady) {
        expect(emails).toEqual([]);
        continue;
      }
      expect(emails).toHaveLength(1);
      expect(emails[0]).toMatchObject({
        subject: `Truss could not make clips from “${short.filename}”`,
        text: expect.stringMatching(/a clip needs at least 3 s/),
      });
      // Given up on again (a redelivery), the video is FAILED already: no second email.
      await analyzeVideoJob.onGiveUp?.(
        { creatorId: short.creatorId, videoId: short.videoId },
        context,
        reason,
      );
      expect(await emailsTo(runtime, creator.email)).toHaveLength(1);
    }
  });
});
