import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mean } from "@/engine/curve-math";
import { generateSyntheticVideo, type SyntheticVideo } from "@/engine/testing/synthetic-video";
import type { MediaProbe, SignalCurve, TimeRange } from "@/engine/types";
import { type MediaBinaries, resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { readMediaStdout } from "@/media/run-ffmpeg";
import { extractSignals, SignalExtractionError } from "./extract-signals";

const binaries = resolveMediaBinaries();

async function listKeyframesSeconds(input: string): Promise<number[]> {
  const listing = await readMediaStdout({
    binaryPath: binaries.ffprobePath,
    args: [
      "-v",
      "error",
      "-select_streams",
      "v:0",
      "-show_entries",
      "packet=pts_time,flags",
      "-of",
      "csv=p=0",
      input,
    ],
    timeoutMs: 20_000,
  });
  return listing
    .toString("utf8")
    .split("\n")
    .filter((line) => line.includes("K"))
    .map((line) => Number(line.split(",")[0]))
    .sort((a, b) => a - b);
}
let directory = "";
let video: SyntheticVideo;
let probe: MediaProbe;

const LOUD = { startSeconds: 8, endSeconds: 20 };
const CUTS = { startSeconds: 28, endSeconds: 40 };
const MOTION = { startSeconds: 46, endSeconds: 56 };
const bracket = (range: TimeRange): TimeRange[] => [
  { startSeconds: range.startSeconds - 1, endSeconds: range.startSeconds },
  { startSeconds: range.endSeconds, endSeconds: range.endSeconds + 1 },
];

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "truss-signals-"));
  video = await generateSyntheticVideo({
    binaries,
    outputPath: path.join(directory, "planted.mp4"),
    plan: {
      durationSeconds: 60,
      events: [
        { kind: "loud-burst", ...LOUD },
        { kind: "fast-cuts", ...CUTS },
        { kind: "motion", ...MOTION },
      ],
      silences: [LOUD, CUTS, MOTION].flatMap(bracket),
    },
  });
  probe = await probeMedia({ binaries, input: video.path });
}, 60_000);

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

const inside = (values: number[], range: TimeRange) =>
  values.slice(range.startSeconds + 1, range.endSeconds - 1);
const outside = (values: number[]) =>
  values.filter(
    (_, second) =>
      ![LOUD, CUTS, MOTION].some(
        (range) => second >= range.startSeconds - 2 && second < range.endSeconds + 2,
      ),
  );

function expectPlantedSilences(curve: SignalCurve) {
  for (const planted of video.silences) {
    const found = curve.silences.find(
      (silence) =>
        Math.abs(silence.startSeconds - planted.startSeconds) <= 0.3 &&
        Math.abs(silence.endSeconds - planted.endSeconds) <= 0.3,
    );
    expect(found, `silence at ${planted.startSeconds}–${planted.endSeconds}`).toBeDefined();
  }
}

describe("extractSignals", () => {
  it("measures a full pass: loudness, silences, cuts and motion where they were planted", async () => {
    const fractions: number[] = [];
    const curve = await extractSignals({
      binaries,
      input: video.path,
      probe,
      mode: "full",
      onProgress: (fraction) => fractions.push(fraction),
    });
    expect(curve.mode).toBe("full");
    expect(curve.rmsDb).toHaveLength(60);
    expect(curve.motion).toHaveLength(60);
    expect(Math.min(...inside(curve.rmsDb, LOUD))).toBeGreaterThan(-15);
    expect(Math.max(...outside(curve.rmsDb))).toBeLessThan(-25);
    expect(Math.min(...inside(curve.momentaryLufs, LOUD))).toBeGreaterThan(-12);
    expectPlantedSilences(curve);

    const cutsInMontage = curve.sceneCutsSeconds.filter(
      (cut) => cut >= CUTS.startSeconds && cut < CUTS.endSeconds,
    );
    expect(cutsInMontage.length).toBeGreaterThanOrEqual(20);
    for (const edge of [LOUD.startSeconds, LOUD.endSeconds, MOTION.startSeconds, MOTION.endSeconds]) {
      expect(
        curve.sceneCutsSeconds.some((cut) => Math.abs(cut - edge) <= 0.5),
        `cut at ${edge}`,
      ).toBe(true);
    }
    expect(outside(curve.sceneScore).every((score) => score < 0.2)).toBe(true);
    expect(mean(inside(curve.motion, MOTION))).toBeGreaterThan(5 * mean(outside(curve.motion)));
    expect(curve.loudnessSwingDb).toHaveLength(60);
    expect(fractions.at(-1)).toBe(1);
  });

  it("measures a fast pass (keyframes only) with full audio and estimated motion", async () => {
    const curve = await extractSignals({ binaries, input: video.path, probe, mode: "fast" });
    expect(curve.mode).toBe("fast");
    expect(curve.rmsDb).toHaveLength(60);
    expectPlantedSilences(curve);
    const cutsInMontage = curve.sceneCutsSeconds.filter(
      (cut) => cut >= CUTS.startSeconds && cut < CUTS.endSeconds,
    );
    expect(cutsInMontage.length).toBeGreaterThanOrEqual(4);
    expect(mean(inside(curve.motion, MOTION))).toBeGreaterThan(3 * mean(outside(curve.motion)));
    // Every keyframe, as ffprobe lists the key packets; the montage's cuts bring extra ones.
    const keyframes = await listKeyframesSeconds(video.path);
    expect(keyframes.length).toBeGreaterThan(3);
    expect(curve.keyframesSeconds).toHaveLength(keyframes.length);
    for (const [index, time] of curve.keyframesSeconds!.entries()) {
      expect(time).toBeCloseTo(keyframes[index]!, 2);
    }
  });

  it("works with the 2018 ffmpeg build shipped by npm (select scene scores, older astats)", async () => {
    const require = createRequire(import.meta.url);
    const npmBinaries: MediaBinaries = {
      ffmpegPath: (require("@ffmpeg-installer/ffmpeg") as { path: string }).path,
      ffprobePath: (require("@ffprobe-installer/ffprobe") as { path: string }).path,
      source: "npm",
      majorVersion: 4,
    };
    const curve = await extractSignals({ binaries: npmBinaries, input: video.path, probe, mode: "full" });
    expectPlantedSilences(curve);
    expect(
      curve.sceneCutsSeconds.filter((cut) => cut >= CUTS.startSeconds && cut < CUTS.endSeconds).length,
    ).toBeGreaterThanOrEqual(20);
    expect(Math.min(...inside(curve.rmsDb, LOUD))).toBeGreaterThan(-15);
    expect(mean(inside(curve.motion, MOTION))).toBeGreaterThan(5 * mean(outside(curve.motion)));
  });

  it("stops with a clear reason when it runs out of time", async () => {
    const error = await extractSignals({
      binaries,
      input: video.path,
      probe,
      mode: "full",
      timeoutMs: 50,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SignalExtractionError);
    expect((error as Error).message).toMatch(/took longer than/);
  });

  it("stops when cancelled", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await extractSignals({
      binaries,
      input: video.path,
      probe,
      mode: "full",
      signal: controller.signal,
    }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/cancelled/);
  });
});
