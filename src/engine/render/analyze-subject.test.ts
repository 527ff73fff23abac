import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FaceBox,
  type FaceDetector,
  loadFaceDetector,
  type RgbFrame,
} from "@/engine/faces/face-detector";
import { encodeTestVideo } from "@/engine/testing/encode-test-video";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { measureLoudness } from "@/media/loudness-measure";
import { ANALYSIS_FRAMES_PER_SECOND, analyzeSubject, framesToSkip, scanKeyframes } from "./analyze-subject";
import { chooseSubjectPlan } from "./choose-subject-plan";

const binaries = resolveMediaBinaries();
const require = createRequire(import.meta.url);
// A demo screenshot shipped in @vladmandic/human: one person's face near its left edge
// (≈ 46 px from the left once scaled to 480 px wide).
const faceImagePath = path.join(
  path.dirname(require.resolve("@vladmandic/human")),
  "..",
  "assets",
  "screenshot-faceid.jpg",
);
const SOURCE = { width: 1280, height: 720, durationSeconds: 4 };
const IMAGE_LEFT_PX = 338;
const FACE_CENTRE_X = (IMAGE_LEFT_PX + 46) / SOURCE.width; // ≈ 0.30

let directory: string;
let sourcePath: string;
let movingBoxPath: string;
let movingBoxEverySecondPath: string;
let movingBoxWithSoundPath: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "truss-analyze-subject-test-"));
  sourcePath = path.join(directory, "face-left-of-centre.mp4");
  // A still wide shot: the screenshot, 480 px wide, placed so the face sits at ~30% of the width.
  await encodeTestVideo({
    binaries,
    inputArgs: [
      "-f",
      "lavfi",
      "-i",
      `color=c=black:s=${SOURCE.width}x${SOURCE.height}:r=10:d=${SOURCE.durationSeconds}`,
      "-loop",
      "1",
      "-i",
      faceImagePath,
      "-filter_complex",
      `[1:v]scale=480:-2[picture];[0:v][picture]overlay=x=${IMAGE_LEFT_PX}:y=190:shortest=1`,
    ],
    outputPath: sourcePath,
  });
  movingBoxPath = path.join(directory, "moving-box.mp4");
  await encodeTestVideo({
    binaries,
    inputArgs: [
      "-f",
      "lavfi",
      "-i",
      "color=c=black:s=640x360:r=10:d=3[bg];color=c=white:s=40x40:r=10:d=3[box];[bg][box]overlay=x='20+t*180':y=160:shortest=1",
    ],
    outputPath: movingBoxPath,
  });
  // The same box with a keyframe every second exactly (10 frames), and none at scene changes.
  movingBoxEverySecondPath = path.join(directory, "moving-box-keyframe-every-second.mp4");
  await encodeTestVideo({
    binaries,
    inputArgs: ["-i", movingBoxPath],
    outputArgs: ["-g", "10", "-keyint_min", "10", "-sc_threshold", "0"],
    outputPath: movingBoxEverySecondPath,
  });
  // The same again with a 440 Hz tone, loud for the first second and 20 dB quieter after.
  movingBoxWithSoundPath = path.join(directory, "moving-box-with-sound.mp4");
  await encodeTestVideo({
    binaries,
    inputArgs: [
      "-i",
      movingBoxEverySecondPath,
      "-f",
      "lavfi",
      "-i",
      "aevalsrc='if(lt(t,1),0.8,0.08)*sin(2*PI*440*t)':sample_rate=48000:duration=3",
    ],
    outputArgs: ["-g", "10", "-keyint_min", "10", "-sc_threshold", "0", "-c:a", "aac", "-shortest"],
    outputPath: movingBoxWithSoundPath,
  });
}, 30_000);

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const analyse = async (faceDetector: FaceDetector | null) =>
  (
    await analyzeSubject({
      ffmpegPath: binaries.ffmpegPath,
      sourcePath,
      startSeconds: 0,
      durationSeconds: SOURCE.durationSeconds,
      sourceWidth: SOURCE.width,
      sourceHeight: SOURCE.height,
      videoCodec: "h264",
      faceDetector,
      timeoutMs: 30_000,
    })
  ).observations;

/** A stand-in detector that reports the bright box as a face, centred where the box is. */
const boxDetector: FaceDetector = {
  detect: async (frames) => frames.map(brightBoxAsFace),
};

function brightBoxAsFace(frame: RgbFrame): FaceBox[] {
  let sumX = 0;
  let count = 0;
  for (let pixel = 0; pixel < frame.width * frame.height; pixel += 1) {
    if (frame.data[pixel * 3]! > 128) {
      sumX += (pixel % frame.width) + 0.5;
      count += 1;
    }
  }
  if (count === 0) return [];
  const x = sumX / count / frame.width;
  return [{ x: x - 0.03, y: 0.4, width: 0.06, height: 0.1, score: 0.9 }];
}

/** Counts the detector's inferences and the frames they were given. */
function counting(detector: FaceDetector) {
  const calls: number[] = [];
  const wrapped: FaceDetector = {
    detect: (frames) => {
      calls.push(frames.length);
      return detector.detect(frames);
    },
  };
  return { detector: wrapped, calls };
}
/** Where the box's centre is at `t` seconds (overlay x = 20 + 180 t, 40 px wide, 640 px frame). */
const boxCentreAt = (timeSeconds: number) => (20 + 180 * timeSeconds + 20) / 640;

describe("scanKeyframes", () => {
  const scanBox = (ffmpegPath: string, startSeconds: number) =>
    scanKeyframes({
      ffmpegPath,
      sourcePath: movingBoxEverySecondPath,
      startSeconds,
      durationSeconds: 3 - startSeconds,
      sourceWidth: 640,
      sourceHeight: 360,
      faceDetector: boxDetector,
      timeoutMs: 30_000,
    });

  it("looks at each keyframe, at its time from the segment's start", async () => {
    const scan = await scanBox(binaries.ffmpegPath, 0);
    expect(scan.keyframeTimesSeconds).toEqual([0, 1, 2]);
    expect(scan.faceSamples.map((sample) => sample.timeSeconds)).toEqual([0, 1, 2]);
    for (const sample of scan.faceSamples) {
      const centre = sample.faces[0]!.x + 0.03;
      expect(Math.abs(centre - boxCentreAt(sample.timeSeconds))).toBeLessThan(0.02);
    }
    // The box moved between keyframes: each differs from the one before.
    expect(scan.changes.map((change) => change.timeSeconds)).toEqual([1, 2]);
    for (const change of scan.changes) expect(change.meanDifference).toBeGreaterThan(0);

    // From 1 s on, the keyframes at 1 and 2 s are 0 and 1 s into the segment.
    const later = await scanBox(binaries.ffmpegPath, 1);
    expect(later.keyframeTimesSeconds).toEqual([0, 1]);
    expect(Math.abs(later.faceSamples[0]!.faces[0]!.x + 0.03 - boxCentreAt(1))).toBeLessThan(0.02);
  });

  it("works with the npm ffmpeg build (ffmpeg 4) too", async () => {
    const require = createRequire(import.meta.url);
    const npmFfmpeg = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
    const scan = await scanBox(npmFfmpeg, 0);
    expect(scan.keyframeTimesSeconds).toEqual([0, 1, 2]);
    expect(scan.faceSamples.every((sample) => sample.faces.length === 1)).toBe(true);
  });
});

describe("metering the audio in the subject pass", () => {
  // Read when the tests run: the source is made in beforeAll.
  const segment = () => ({
    sourcePath: movingBoxWithSoundPath,
    startSeconds: 0.5,
    durationSeconds: 2.5,
    sourceWidth: 640,
    sourceHeight: 360,
    faceDetector: null,
    timeoutMs: 30_000,
  });

  it("measures what a pass of its own measures, and sees the same frames", async () => {
    const require = createRequire(import.meta.url);
    const npmFfmpeg = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
    const look = segment();
    for (const ffmpegPath of [binaries.ffmpegPath, npmFfmpeg]) {
      const alone = await measureLoudness({ ffmpegPath, input: look.sourcePath, ...look });
      // Half a second of the loud tone in 2.5 s: well above the quiet tone's level.
      expect(alone!.integratedLufs).toBeGreaterThan(-20);
      const scanned = await scanKeyframes({
        ...look,
        ffmpegPath,
        meterLoudness: true,
        videoDecoderThreads: 1,
      });
      const sampled = await analyzeSubject({ ...look, ffmpegPath, videoCodec: "h264", meterLoudness: true });
      for (const { loudness } of [scanned, sampled]) {
        expect(loudness!.integratedLufs).toBeCloseTo(alone!.integratedLufs, 1);
        expect(loudness!.truePeakDbtp).toBeCloseTo(alone!.truePeakDbtp, 1);
      }
      // Keyframes at 1 and 2 s, half a second and 1.5 s into the segment; frames 4 a second.
      expect(scanned.keyframeTimesSeconds).toEqual([0.5, 1.5]);
      expect(sampled.observations.motionSamples).toHaveLength(9);
    }
  });

  it("leaves the audio alone unless asked", async () => {
    const look = { ...segment(), ffmpegPath: binaries.ffmpegPath };
    expect((await scanKeyframes(look)).loudness).toBeUndefined();
    expect((await analyzeSubject({ ...look, videoCodec: "h264" })).loudness).toBeUndefined();
  });
});

describe("framesToSkip", () => {
  it("leaves every B-frame of H.264 undecoded, and of other codecs only what nothing refers to", () => {
    expect(framesToSkip("h264")).toBe("bidir");
    expect(framesToSkip("hevc")).toBe("noref");
    expect(framesToSkip("vp9")).toBe("noref");
    expect(framesToSkip(null)).toBe("noref");
  });
});

describe("analyzeSubject", () => {
  it("finds the face in sampled frames and the crop centres on it", async () => {
    const { detector, calls } = counting(await loadFaceDetector());
    const observations = await analyse(detector);
    const frames = SOURCE.durationSeconds * ANALYSIS_FRAMES_PER_SECOND;
    expect(observations.motionSamples).toHaveLength(frames - 1);
    // One face sample a second; the shot is still, so one frame was detected (alone, at the
    // end) and the later samples reused its answer.
    expect(observations.faceSamples.map((sample) => sample.timeSeconds)).toEqual([0, 1, 2, 3]);
    expect(calls).toEqual([1]);
    const plan = chooseSubjectPlan({ observations, cropWidthFraction: (720 * 9) / 16 / 1280 });
    expect(plan).toMatchObject({ layout: "crop", subject: "faces" });
    expect(plan.targets).toHaveLength(4);
    for (const target of plan.targets) expect(Math.abs(target.centerX! - FACE_CENTRE_X)).toBeLessThan(0.05);
  });

  it("looks for faces once a second, two frames to an inference, where the subject moves", async () => {
    // The box stands in for a face, so the cadence can be checked on a subject whose position
    // is known at every frame.
    const { detector, calls } = counting(boxDetector);
    const { observations } = await analyzeSubject({
      ffmpegPath: binaries.ffmpegPath,
      sourcePath: movingBoxPath,
      startSeconds: 0,
      durationSeconds: 3,
      sourceWidth: 640,
      sourceHeight: 360,
      videoCodec: "h264",
      faceDetector: detector,
      timeoutMs: 30_000,
    });
    // 12 frames: faces at 0, 1 and 2 s; the first two in one inference, the last alone.
    expect(observations.faceSamples.map((sample) => sample.timeSeconds)).toEqual([0, 1, 2]);
    expect(calls).toEqual([2, 1]);
    observations.faceSamples.forEach((sample) => {
      expect(Math.abs(sample.faces[0]!.x + 0.03 - boxCentreAt(sample.timeSeconds))).toBeLessThan(0.03);
    });
  });

  it("stops with the detector's error, and leaves no failure unhandled", async () => {
    let calls = 0;
    const failing: FaceDetector = {
      detect: async () => {
        calls += 1;
        throw new Error("detector crashed");
      },
    };
    await expect(analyse(failing)).rejects.toThrow("detector crashed");
    expect(calls).toBe(1);
  });

  it("without a detector, sees a still shot with nothing to follow", async () => {
    const observations = await analyse(null);
    expect(observations.faceSamples).toEqual([]);
    for (const sample of observations.motionSamples) expect(sample.energy).toBeLessThan(0.001);
    const plan = chooseSubjectPlan({ observations, cropWidthFraction: 0.316 });
    expect(plan).toMatchObject({ layout: "fit", subject: "none" });
  });
});
