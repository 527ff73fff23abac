import { beforeAll, describe, expect, it } from "vitest";
import {
  downsampleInterestCurve,
  findVideoChapters,
  putVideoChapters,
  retitleVideoChapters,
} from "@/db/repos/chapters-repo";
import type { Video } from "@/db/repos/video-repo";
import { analyzeLocally } from "@/engine/analyzers/local-analyzer";
import { DEFAULT_CLIP_OPTIONS } from "@/engine/clip-options";
import { DEFAULT_MOMENT_OPTIONS } from "@/engine/defaults";
import { makeSignalCurve } from "@/engine/testing/signal-curves";
import { testProbe } from "@/engine/testing/test-probe";
import type { AnalysisResult } from "@/engine/types";
import { createId } from "@/lib/ids";
import { tableOf } from "@/server/runtime";
import { writeAnalysisArtifact, writeSignalsArtifact } from "@/storage/analysis-artifacts";
import { recordQueuedVideo, recordVideoReady } from "@/worker/testing/create-queued-test-video";
import { testRuntime } from "../../../dev/test/runtime";
import { removeVideoCaptions, setVideoCaptions } from "./video-captions";

const runtime = testRuntime();
const table = tableOf(runtime);
const storage = { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName };
const probe = testProbe({ durationSeconds: 300 });
// Five minutes in three parts: a quiet start, a loud middle, a quiet end with pauses between.
const signals = makeSignalCurve({
  durationSeconds: 300,
  stretches: [
    { startSeconds: 98, endSeconds: 100, silent: true },
    { startSeconds: 100, endSeconds: 200, loudnessLufs: -16, motion: 0.05, cutEverySeconds: 8 },
    { startSeconds: 200, endSeconds: 202, silent: true },
  ],
});

/** A READY video whose stored analysis (local, or as if from Gemini) has no transcript. */
async function analysedVideo(analyzer: AnalysisResult["analyzer"]): Promise<Video> {
  const creatorId = createId("creator");
  const videoId = createId("video");
  const queued = await recordQueuedVideo({ table, creatorId, videoId, filename: "talk.mp4", probe });
  const local = analyzeLocally({
    sourceFile: async () => "",
    probe,
    signals,
    options: DEFAULT_MOMENT_OPTIONS,
  });
  const analysis: AnalysisResult =
    analyzer === "local"
      ? local
      : {
          ...local,
          analyzer,
          chapters: local.chapters.map((chapter, index) => ({
            ...chapter,
            title: `Gemini's part ${index + 1}`,
          })),
        };
  await writeSignalsArtifact({ ...storage, creatorId, videoId, signals });
  await writeAnalysisArtifact({
    ...storage,
    creatorId,
    videoId,
    analysis,
    clipOptions: DEFAULT_CLIP_OPTIONS,
    momentsAskedFor: DEFAULT_CLIP_OPTIONS.count,
  });
  await putVideoChapters({
    table,
    creatorId,
    videoId,
    chapters: analysis.chapters,
    interestCurve: downsampleInterestCurve(analysis.interestCurve),
  });
  return recordVideoReady({ table, video: queued });
}

const titlesOf = async (video: Video) =>
  (await findVideoChapters({ table, ...video, consistent: true }))?.chapters.map((chapter) => chapter.title);

/** Someone speaking from 2:05 to 2:20, in the middle part only. */
const srt = [
  "1\n00:02:05,000 --> 00:02:09,000\nSo this is where the whole thing turns around\n",
  "2\n00:02:10,000 --> 00:02:20,000\nand nobody saw it coming\n",
].join("\n");

describe("chapters when a video's captions change after its analysis", () => {
  let video: Video;
  let partsBefore: { startSeconds: number; endSeconds: number }[];
  let titlesBefore: string[];

  beforeAll(async () => {
    video = await analysedVideo("local");
    const stored = await findVideoChapters({ table, ...video, consistent: true });
    partsBefore = stored!.chapters.map(({ startSeconds, endSeconds }) => ({ startSeconds, endSeconds }));
    titlesBefore = stored!.chapters.map((chapter) => chapter.title);
  });

  it("titles the part in which something is said with its first words, and leaves the parts where they are", async () => {
    expect(titlesBefore).toHaveLength(3);
    expect(titlesBefore.every((title) => /^Part \d · /.test(title))).toBe(true);
    const middle = partsBefore.findIndex((part) => part.startSeconds <= 125 && part.endSeconds > 125);

    await setVideoCaptions({ runtime, ...video, fileName: "talk.srt", text: srt });

    const stored = await findVideoChapters({ table, ...video, consistent: true });
    expect(stored!.chapters.map(({ startSeconds, endSeconds }) => ({ startSeconds, endSeconds }))).toEqual(
      partsBefore,
    );
    expect(stored!.chapters[middle]!.title).toBe("“So this is where the whole…”");
    // The silent parts are described as before.
    expect(stored!.chapters.filter((_, index) => index !== middle).map((chapter) => chapter.title)).toEqual(
      titlesBefore.filter((_, index) => index !== middle),
    );
  });

  it("describes the parts by their signals again once the captions are removed", async () => {
    await removeVideoCaptions({ runtime, ...video });
    expect(await titlesOf(video)).toEqual(titlesBefore);
  });

  it("leaves Gemini's titles, and writes nothing over chapters an analysis replaced meanwhile", async () => {
    const gemini = await analysedVideo("gemini");
    const geminiTitles = await titlesOf(gemini);
    await setVideoCaptions({ runtime, ...gemini, fileName: "talk.srt", text: srt });
    expect(await titlesOf(gemini)).toEqual(geminiTitles);

    const stale = await retitleVideoChapters({
      table,
      ...video,
      titles: ["A", "B", "C"],
      expectedUpdatedAt: "2020-01-01T00:00:00.000Z",
    });
    expect(stale).toBe(false);
    expect(await titlesOf(video)).toEqual(titlesBefore);
  });
});
