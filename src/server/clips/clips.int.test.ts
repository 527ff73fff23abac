import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Clip,
  listClipsByScore,
  markClipRendered,
  STALE_RENDER_MS,
  setClipRenderStatus,
  upsertClipsForVideo,
} from "@/db/repos/clip-repo";
import { findVideoById, updateVideo, type Video } from "@/db/repos/video-repo";
import { standInRender } from "@/db/testing/stand-in-render";
import { DEFAULT_SIGNAL_MODE } from "@/engine/defaults";
import { extractSignals } from "@/engine/signals/extract-signals";
import { createId } from "@/lib/ids";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { getQueueUrl } from "@/queue/queue-url";
import { tableOf } from "@/server/runtime";
import { removeVideoCaptions, setVideoCaptions } from "@/server/videos/video-captions";
import { writeSignalsArtifact } from "@/storage/analysis-artifacts";
import { headObject } from "@/storage/head-object";
import { downloadObjectToFile, writeJsonObject } from "@/storage/object-io";
import { captionsObjectKey, clipRenderObjectKey } from "@/storage/object-keys";
import { presignGet } from "@/storage/presign";
import type { JobContext } from "@/worker/job-types";
import { renderClipJob } from "@/worker/jobs/render-clip";
import { createQueuedTestVideo, recordVideoReady } from "@/worker/testing/create-queued-test-video";
import { provisionResources } from "../../../dev/provision";
import { testRuntime, testTableName } from "../../../dev/test/runtime";
import { editClip } from "./edit-clip";
import { getClip } from "./get-clip";
import { getVideoStudio } from "./get-video-studio";
import { listClips } from "./list-clips";

// Its own queue, so the render job this test queues is read by this test only; its own table,
// so another file's sweep does not re-queue the stalled render it sets up.
const runtime = testRuntime({
  TRUSS_TABLE_NAME: testTableName("clips"),
  TRUSS_QUEUE_NAME: `truss-clips-test-${process.pid}`,
  TRUSS_DLQ_NAME: `truss-clips-test-dlq-${process.pid}`,
});
const table = tableOf(runtime);
const storage = { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName };

let video: Video;
let best: Clip;
let weak: Clip;

function moment(ordinal: number, startSeconds: number, endSeconds: number, score: number) {
  return {
    ordinal,
    startSeconds,
    endSeconds,
    score,
    subscores: { hook: score, audioEnergy: score, visualDynamics: 20, speech: 50, chat: null },
    reasons: [{ atSeconds: startSeconds + 1, text: "Planted loud burst" }],
    title: `Moment ${ordinal + 1}`,
    hookLine: null,
    platformCopy:
      ordinal === 0 ? { youtube: { title: "Wait for it", description: "…", hashtags: ["shorts"] } } : null,
  };
}

function renderKeys(clip: Clip, revision: number) {
  const keyOf = (kind: "video" | "thumbnail" | "preview") =>
    clipRenderObjectKey({
      creatorId: video.creatorId,
      videoId: clip.videoId,
      clipId: clip.clipId,
      revision,
      kind,
    });
  return { videoKey: keyOf("video"), thumbnailKey: keyOf("thumbnail"), previewKey: keyOf("preview") };
}

async function receiveRenderJobs(): Promise<unknown[]> {
  const queueUrl = await getQueueUrl(runtime.clients.sqs, runtime.config.aws.queueName);
  const output = await runtime.clients.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
  );
  const bodies: unknown[] = [];
  for (const message of output.Messages ?? []) {
    bodies.push(JSON.parse(message.Body ?? "{}"));
    await runtime.clients.sqs.send(
      new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }),
    );
  }
  return bodies;
}

function jobContext(logs: string[]): JobContext {
  return {
    runtime,
    signal: new AbortController().signal,
    attempt: 1,
    isFinalAttempt: false,
    holdMs: 120_000,
    log: (message) => logs.push(message),
  };
}

beforeAll(async () => {
  const { clients, config } = runtime;
  await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  ({ video } = await createQueuedTestVideo({ runtime, durationSeconds: 40 }));
  const { creatorId, videoId } = video;

  // The stored signals the render job re-scores an edited range from.
  const workDir = await mkdtemp(path.join(os.tmpdir(), "truss-clips-test-"));
  try {
    const sourcePath = path.join(workDir, "source.mp4");
    await downloadObjectToFile({ ...storage, key: video.sourceKey, filePath: sourcePath });
    const signals = await extractSignals({
      binaries: resolveMediaBinaries(),
      input: sourcePath,
      probe: video.probe!,
      mode: DEFAULT_SIGNAL_MODE,
    });
    await writeSignalsArtifact({ ...storage, creatorId, videoId, signals });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }

  const { clips } = await upsertClipsForVideo({
    table,
    creatorId,
    videoId,
    videoTitle: "planted-events.mp4",
    moments: [moment(0, 10, 30, 81), moment(1, 32, 38, 22)],
  });
  [best, weak] = clips as [Clip, Clip];
  // A stand-in render of revision 0 (tiny objects), so the edit has an old render to keep.
  const keys = renderKeys(best, 0);
  for (const key of Object.values(keys)) await writeJsonObject({ ...storage, key, value: { stand: "in" } });
  best = (await markClipRendered({
    table,
    creatorId,
    clipId: best.clipId,
    render: standInRender(keys, { startSeconds: 10, endSeconds: 30 }),
  }))!.clip;
  video = await recordVideoReady({ table, video });
});

afterAll(async () => {
  await receiveRenderJobs();
});

describe("clip server functions", () => {
  it("lists newest first and by score, with presigned pictures that load", async () => {
    const { creatorId } = video;
    const newest = await listClips({ runtime, creatorId, sort: "newest" });
    // Newest video first, and within it best first.
    expect(newest.clips.map((clip) => clip.clipId)).toEqual([best.clipId, weak.clipId]);
    const top = await listClips({ runtime, creatorId, sort: "score", minScore: 50 });
    expect(top.clips.map((clip) => [clip.clipId, clip.rank, clip.score])).toEqual([[best.clipId, 1, 81]]);
    expect(top.clips[0]?.rendered?.previewType).toBe("image/webp");
    const thumbnail = await fetch(top.clips[0]!.rendered!.thumbnailUrl);
    expect(thumbnail.status).toBe(200);
    // The same page twice gives the same URLs (players on a polling page do not reload).
    const again = await listClips({ runtime, creatorId, sort: "score", minScore: 50 });
    expect(again.clips[0]?.rendered?.thumbnailUrl).toBe(top.clips[0]?.rendered?.thumbnailUrl);
    await expect(listClips({ runtime, creatorId, sort: "newest", minScore: 50 })).rejects.toMatchObject({
      code: "validation_failed",
    });
  });

  it("gets one clip with media URLs, and 404s for anyone else's or a malformed id", async () => {
    const clip = await getClip({ runtime, creatorId: video.creatorId, clipId: best.clipId });
    expect(clip).toMatchObject({
      clipId: best.clipId,
      platformCopy: { youtube: { title: "Wait for it" } },
      source: { durationSeconds: video.probe!.durationSeconds },
      editLimits: { minSeconds: 3, maxSeconds: 180 },
    });
    expect(clip.media?.downloadUrl).toMatch(/response-content-disposition=attachment/);
    expect(clip.media?.downloadUrl).toMatch(/planted-events-clip-1-moment-1\.mp4/);
    const download = await fetch(clip.media!.downloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-disposition")).toMatch(/^attachment/);
    await expect(
      getClip({ runtime, creatorId: createId("creator"), clipId: best.clipId }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getClip({ runtime, creatorId: video.creatorId, clipId: "../etc" })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("shows the video's studio: clips, chapters and a source URL, only to its creator", async () => {
    const studio = await getVideoStudio({ runtime, creatorId: video.creatorId, videoId: video.videoId });
    expect(studio.video.status).toBe("READY");
    expect(studio.clips.map((clip) => clip.clipId)).toEqual([best.clipId, weak.clipId]);
    expect(studio.sourceUrl).toMatch(/^http/);
    await expect(
      getVideoStudio({ runtime, creatorId: createId("creator"), videoId: video.videoId }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses ranges outside the video or its length limits, and stale versions", async () => {
    const base = { runtime, creatorId: video.creatorId, clipId: best.clipId };
    const duration = video.probe!.durationSeconds;
    await expect(
      editClip({ ...base, startSeconds: duration - 10, endSeconds: duration + 5 }),
    ).rejects.toMatchObject({
      code: "validation_failed",
    });
    await expect(editClip({ ...base, startSeconds: 10, endSeconds: 11 })).rejects.toMatchObject({
      code: "validation_failed",
    });
    // A picture that ends before the sound does bounds the range (its probe says where).
    const stored = (await findVideoById({ table, creatorId: video.creatorId, videoId: video.videoId }))!;
    const pictureEndSeconds = Math.floor(duration - 20);
    const withEarlyEnd = await updateVideo({
      table,
      creatorId: video.creatorId,
      videoId: video.videoId,
      expectedVersion: stored.version,
      set: { probe: { ...stored.probe!, pictureEndSeconds } },
    });
    await expect(
      editClip({ ...base, startSeconds: pictureEndSeconds - 10, endSeconds: pictureEndSeconds + 10 }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringMatching(/where the video has a picture/),
    });
    expect((await getClip({ ...base })).source.durationSeconds).toBe(pictureEndSeconds);
    await updateVideo({
      table,
      creatorId: video.creatorId,
      videoId: video.videoId,
      expectedVersion: withEarlyEnd.version,
      set: { probe: stored.probe! },
    });
    await expect(
      editClip({ ...base, startSeconds: 12, endSeconds: 27, expectedVersion: best.version - 1 }),
    ).rejects.toMatchObject({ code: "conflict" });
    await expect(
      editClip({ ...base, creatorId: createId("creator"), startSeconds: 12, endSeconds: 27 }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await receiveRenderJobs()).toEqual([]);
  });

  it("re-renders an edited range as a new revision, keeping the old render until the new one lands", async () => {
    const { creatorId, videoId } = video;
    const edited = await editClip({
      runtime,
      creatorId,
      clipId: best.clipId,
      startSeconds: 12,
      endSeconds: 27.5,
      expectedVersion: best.version,
    });
    expect(edited).toMatchObject({ revision: 1, status: "PENDING", startSeconds: 12, endSeconds: 27.5 });
    expect(edited.rendered?.revision).toBe(0);
    // Until the new render lands, the download is the old one, named for the range it shows.
    expect(decodeURIComponent(edited.media?.downloadUrl ?? "")).toMatch(
      /planted-events-clip-1-\d+-\d\d-to-\d+-\d\d\.mp4/,
    );
    // Scored for its new range in the request: every reason is inside it.
    expect(edited.reasons.length).toBeGreaterThan(0);
    for (const reason of edited.reasons) {
      expect(reason.atSeconds).toBeGreaterThanOrEqual(12);
      expect(reason.atSeconds).toBeLessThanOrEqual(27.5);
    }

    const jobs = await receiveRenderJobs();
    expect(jobs).toEqual([
      expect.objectContaining({
        name: "render-clip",
        payload: { creatorId, videoId, clipId: best.clipId, revision: 1 },
      }),
    ]);

    const logs: string[] = [];
    await renderClipJob.run({ creatorId, videoId, clipId: best.clipId, revision: 1 }, jobContext(logs));
    // ffmpeg read the stored source over HTTP ranges; no download was needed.
    expect(logs.join("\n")).not.toMatch(/downloading the source/);
    const rendered = await getClip({ runtime, creatorId, clipId: best.clipId });
    expect(rendered).toMatchObject({
      status: "READY",
      revision: 1,
      rendered: { revision: 1, startSeconds: 12, endSeconds: 27.5 },
    });
    expect(decodeURIComponent(rendered.media?.downloadUrl ?? "")).not.toMatch(/-to-/);
    // The render job's own re-score found the same figures.
    expect({ score: rendered.score, reasons: rendered.reasons }).toEqual({
      score: edited.score,
      reasons: edited.reasons,
    });
    // Re-scored from the signals: the rank item moved with the score (one rank item, new score).
    const ranked = await listClipsByScore({ table, creatorId, limit: 10 });
    expect(ranked.items.filter((clip) => clip.clipId === best.clipId).map((clip) => clip.score)).toEqual([
      rendered.score,
    ]);
    expect(rendered.reasons.length).toBeGreaterThan(0);

    // The new files exist and the MP4 is 1080×1920; the old revision's files are gone.
    for (const key of Object.values(renderKeys(best, 0)))
      expect(await headObject({ ...storage, key })).toBeUndefined();
    const newVideoKey = renderKeys(best, 1).videoKey;
    expect(await headObject({ ...storage, key: newVideoKey })).toBeDefined();
    const { url } = await presignGet({
      client: runtime.clients.s3,
      bucket: storage.bucket,
      key: newVideoKey,
    });
    const probe = await probeMedia({ binaries: resolveMediaBinaries(), input: url });
    expect(probe).toMatchObject({ width: 1080, height: 1920 });
    expect(probe.durationSeconds).toBeCloseTo(15.5, 0);

    // Redelivered, or overtaken by a newer edit: nothing more happens.
    const redelivered: string[] = [];
    await renderClipJob.run(
      { creatorId, videoId, clipId: best.clipId, revision: 1 },
      jobContext(redelivered),
    );
    expect(redelivered.join("\n")).toMatch(/already rendered/);
    const stale: string[] = [];
    await renderClipJob.run({ creatorId, videoId, clipId: best.clipId, revision: 0 }, jobContext(stale));
    expect(stale.join("\n")).toMatch(/newer range/);
  }, 240_000);

  it("re-renders in the layout the creator chose, keeping the range and its score", async () => {
    const { creatorId, videoId } = video;
    const before = await getClip({ runtime, creatorId, clipId: best.clipId });
    expect(before.layout).toBe("auto");
    const edited = await editClip({
      runtime,
      creatorId,
      clipId: best.clipId,
      layoutChoice: "fit",
      expectedVersion: before.version,
    });
    const revision = before.revision + 1;
    expect(edited).toMatchObject({
      layout: "fit",
      revision,
      status: "PENDING",
      startSeconds: before.startSeconds,
      endSeconds: before.endSeconds,
    });
    expect(await receiveRenderJobs()).toEqual([
      expect.objectContaining({ payload: { creatorId, videoId, clipId: best.clipId, revision } }),
    ]);
    // The same choice again is no new revision, and its render, already queued, is not queued twice.
    expect((await editClip({ runtime, creatorId, clipId: best.clipId, layoutChoice: "fit" })).revision).toBe(
      revision,
    );
    expect(await receiveRenderJobs()).toEqual([]);

    await renderClipJob.run({ creatorId, videoId, clipId: best.clipId, revision }, jobContext([]));
    expect(await getClip({ runtime, creatorId, clipId: best.clipId })).toMatchObject({
      status: "READY",
      layout: "fit",
      score: before.score,
      rendered: { revision, layout: "fit", startSeconds: before.startSeconds, endSeconds: before.endSeconds },
    });
  }, 120_000);

  it("burns the creator's subtitle file into re-rendered clips, refuses files that are not subtitles, and takes it away again", async () => {
    const { creatorId, videoId } = video;
    const duration = video.probe!.durationSeconds;
    const stamp = (seconds: number) => `00:00:${String(Math.floor(seconds)).padStart(2, "0")},000`;
    const srt = Array.from({ length: Math.floor(duration / 2) }, (_, index) =>
      [index + 1, `${stamp(index * 2)} --> ${stamp(index * 2 + 1.5)}`, `Line ${index + 1}`, ""].join("\n"),
    ).join("\n");
    const captionsKey = (format: "srt" | "vtt") => captionsObjectKey(creatorId, videoId, format);

    // Not subtitles, or for a longer video: refused with the reason, nothing stored.
    await expect(
      setVideoCaptions({ runtime, creatorId, videoId, fileName: "notes.txt", text: "just some notes" }),
    ).rejects.toMatchObject({
      code: "validation_failed",
      message: expect.stringMatching(/not an SRT or WebVTT/),
    });
    await expect(
      setVideoCaptions({
        runtime,
        creatorId,
        videoId,
        fileName: "other.srt",
        text: "1\n01:00:00,000 --> 01:00:02,000\nLate\n",
      }),
    ).rejects.toMatchObject({ code: "validation_failed", message: expect.stringMatching(/another video/) });
    await expect(
      setVideoCaptions({ runtime, creatorId: createId("creator"), videoId, fileName: "talk.srt", text: srt }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await headObject({ ...storage, key: captionsKey("srt") })).toBeUndefined();
    expect(await receiveRenderJobs()).toEqual([]);

    const before = await getClip({ runtime, creatorId, clipId: best.clipId });
    const added = await setVideoCaptions({ runtime, creatorId, videoId, fileName: "talk.srt", text: srt });
    expect(added.video.captions).toMatchObject({
      fileName: "talk.srt",
      format: "srt",
      cueCount: Math.floor(duration / 2),
    });
    // Both clips re-render, each as a new revision.
    expect(added.clipsRerendering).toBe(2);
    const jobs = (await receiveRenderJobs()) as { payload: { clipId: string; revision: number } }[];
    expect(jobs.map((job) => job.payload.clipId).sort()).toEqual([best.clipId, weak.clipId].sort());
    const bestJob = jobs.find((job) => job.payload.clipId === best.clipId)!;
    expect(bestJob.payload.revision).toBe(before.revision + 1);

    const logs: string[] = [];
    await renderClipJob.run(
      { creatorId, videoId, clipId: best.clipId, revision: bestJob.payload.revision },
      jobContext(logs),
    );
    expect(logs.some((line) => /^render: captions: \d+ cards burned in$/.test(line))).toBe(true);
    expect(await getClip({ runtime, creatorId, clipId: best.clipId })).toMatchObject({
      status: "READY",
      rendered: { revision: bestJob.payload.revision },
    });

    // A WebVTT file replaces it; then the creator removes it, and the clips render without captions.
    const vtt = `WEBVTT\n\n${srt.replaceAll(",000", ".000")}`;
    const replaced = await setVideoCaptions({ runtime, creatorId, videoId, fileName: "talk.vtt", text: vtt });
    expect(replaced.video.captions).toMatchObject({ format: "vtt" });
    expect(await headObject({ ...storage, key: captionsKey("srt") })).toBeUndefined();
    expect(await headObject({ ...storage, key: captionsKey("vtt") })).toBeDefined();
    await receiveRenderJobs();
    const removed = await removeVideoCaptions({ runtime, creatorId, videoId });
    expect(removed.video.captions).toBeNull();
    expect(await headObject({ ...storage, key: captionsKey("vtt") })).toBeUndefined();
    const lastJobs = (await receiveRenderJobs()) as { payload: { clipId: string; revision: number } }[];
    const lastBest = lastJobs.find((job) => job.payload.clipId === best.clipId)!;
    const withoutLogs: string[] = [];
    await renderClipJob.run(
      { creatorId, videoId, clipId: best.clipId, revision: lastBest.payload.revision },
      jobContext(withoutLogs),
    );
    expect(withoutLogs.some((line) => line.includes("captions:"))).toBe(false);
    expect((await getClip({ runtime, creatorId, clipId: best.clipId })).status).toBe("READY");
  }, 240_000);

  it("renders a failed or long-stuck clip again when asked with nothing new, but not one rendering now", async () => {
    const { creatorId, videoId } = video;
    const current = await getClip({ runtime, creatorId, clipId: weak.clipId });
    await setClipRenderStatus({
      table,
      creatorId,
      clipId: weak.clipId,
      revision: current.revision,
      status: "FAILED",
      failureReason: "ffmpeg was killed",
    });
    await receiveRenderJobs();
    expect((await getClip({ runtime, creatorId, clipId: weak.clipId })).canRenderAgain).toBe(true);
    const retried = await editClip({ runtime, creatorId, clipId: weak.clipId, layoutChoice: current.layout });
    expect(retried).toMatchObject({
      status: "PENDING",
      revision: current.revision,
      renderFailureReason: null,
    });
    const job = expect.objectContaining({
      payload: { creatorId, videoId, clipId: weak.clipId, revision: current.revision },
    });
    expect(await receiveRenderJobs()).toEqual([job]);

    // A render under way is not queued twice; one started long ago lost its worker, and is.
    const rendering = (now: Date) =>
      setClipRenderStatus({
        table,
        creatorId,
        clipId: weak.clipId,
        revision: current.revision,
        status: "RENDERING",
        now,
      });
    const askAgain = () =>
      editClip({ runtime, creatorId, clipId: weak.clipId, layoutChoice: current.layout });
    await rendering(new Date());
    expect((await getClip({ runtime, creatorId, clipId: weak.clipId })).canRenderAgain).toBe(false);
    await askAgain();
    expect(await receiveRenderJobs()).toEqual([]);
    await rendering(new Date(Date.now() - STALE_RENDER_MS - 60_000));
    expect((await getClip({ runtime, creatorId, clipId: weak.clipId })).canRenderAgain).toBe(true);
    await askAgain();
    expect(await receiveRenderJobs()).toEqual([job]);
    // Asked again at once: the render just queued again waits for that job.
    expect((await askAgain()).canRenderAgain).toBe(false);
    expect(await receiveRenderJobs()).toEqual([]);
  });
  it("stops a render a newer edit overtook, instead of finishing it first", async () => {
    const { creatorId, videoId } = video;
    const [long] = (
      await upsertClipsForVideo({
        table,
        creatorId,
        videoId,
        videoTitle: "planted-events.mp4",
        moments: [moment(0, 10, 30, 81), moment(1, 32, 38, 22), moment(5, 0, 40, 50)],
      })
    ).clips.filter((clip) => clip.ordinal === 5) as [Clip];
    await receiveRenderJobs();
    const first = await editClip({ runtime, creatorId, clipId: long.clipId, layoutChoice: "crop" });
    const logs: string[] = [];
    const job = renderClipJob.run(
      { creatorId, videoId, clipId: long.clipId, revision: first.revision },
      jobContext(logs),
    );
    for (;;) {
      const clip = await getClip({ runtime, creatorId, clipId: long.clipId });
      if (clip.status === "RENDERING") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const second = await editClip({ runtime, creatorId, clipId: long.clipId, layoutChoice: "fit" });
    await job;
    expect(logs.join("\n")).toMatch(/overtaken by a newer edit; stopped/);
    // Nothing of the overtaken revision was kept; the newer one is owed its render.
    for (const key of Object.values(renderKeys(long, first.revision)))
      expect(await headObject({ ...storage, key })).toBeUndefined();
    expect(await getClip({ runtime, creatorId, clipId: long.clipId })).toMatchObject({
      revision: second.revision,
      status: "PENDING",
    });
    await receiveRenderJobs();
  }, 240_000);
});
