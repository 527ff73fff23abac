import { describe, expect, it } from "vitest";
import { framesNeededWhateverTheFaces, keyframesSuffice, STILL_MOTION } from "./keyframes-suffice";

const scanAt = (keyframeTimesSeconds: number[], hasFaces: boolean) => ({ keyframeTimesSeconds, hasFaces });

const still = Array.from({ length: 120 }, () => STILL_MOTION / 3);
const moving = Array.from({ length: 120 }, () => STILL_MOTION * 10);
const base = { durationSeconds: 20, startSeconds: 30, cutsSeconds: [] };

describe("keyframesSuffice", () => {
  it("takes faces from keyframes at most 2 s apart, however much the picture moves", () => {
    const dense = scanAt([0, 2, 4, 6, 8, 10, 12, 14, 16, 18], true);
    expect(keyframesSuffice({ ...base, ...dense, motionPerSecond: moving }).suffice).toBe(true);
  });

  it("samples frames when faces are on keyframes far apart and the picture moves between them", () => {
    const sparse = scanAt([0, 8.3, 16.6], true);
    const verdict = keyframesSuffice({ ...base, ...sparse, motionPerSecond: moving });
    expect(verdict).toEqual({
      suffice: false,
      reason: "faces, and the picture moves between keyframes 0.0–8.3 s",
    });
    // Still between them, the keyframes show all there is.
    expect(keyframesSuffice({ ...base, ...sparse, motionPerSecond: still }).suffice).toBe(true);
  });

  it("without faces, needs a still picture throughout (motion is followed only from sampled frames)", () => {
    const dense = scanAt([0, 2, 4, 6, 8, 10, 12, 14, 16, 18], false);
    expect(keyframesSuffice({ ...base, ...dense, motionPerSecond: moving }).suffice).toBe(false);
    expect(keyframesSuffice({ ...base, ...dense, motionPerSecond: still })).toEqual({
      suffice: true,
      reason: "no faces on keyframes and a still picture",
    });
    // One moving second of the segment (source second 45 = 15 s into it) is enough to sample.
    const oneMoving = still.map((value, second) => (second === 45 ? STILL_MOTION * 2 : value));
    expect(keyframesSuffice({ ...base, ...dense, motionPerSecond: oneMoving }).suffice).toBe(false);
  });

  it("ignores a second the segment only grazes", () => {
    // The segment starts 2 ms before second 30: second 29, which moves, overlaps it by 2 ms.
    const graze = still.map((value, second) => (second === 29 ? 0.5 : value));
    const verdict = keyframesSuffice({
      ...base,
      startSeconds: 29.998,
      ...scanAt([0, 8, 16], false),
      motionPerSecond: graze,
    });
    expect(verdict.suffice).toBe(true);
  });

  it("ignores a stretch too short for the 4 fps pass to sample: a clip ending one frame after a cut", () => {
    // Still up to the cut at 20 s (source second 50), moving after it.
    const movingAfterCut = still.map((value, second) => (second >= 50 ? STILL_MOTION * 10 : value));
    const verdict = keyframesSuffice({
      ...base,
      durationSeconds: 20.033,
      ...scanAt([0, 8, 16, 20], false),
      motionPerSecond: movingAfterCut,
    });
    expect(verdict).toEqual({ suffice: true, reason: "no faces on keyframes and a still picture" });
  });

  it("samples frames when a cut falls between keyframes (an unseen shot), not at one", () => {
    const scan = scanAt([0, 8, 16], true);
    expect(keyframesSuffice({ ...base, ...scan, motionPerSecond: still, cutsSeconds: [8.05] }).suffice).toBe(
      true,
    );
    expect(keyframesSuffice({ ...base, ...scan, motionPerSecond: still, cutsSeconds: [11] })).toEqual({
      suffice: false,
      reason: "a cut at 11.0 s between keyframes",
    });
  });

  it("samples frames without the source's motion or without any keyframe", () => {
    const scan = scanAt([0, 8, 16], false);
    expect(keyframesSuffice({ ...base, ...scan, motionPerSecond: undefined }).suffice).toBe(false);
    expect(keyframesSuffice({ ...base, ...scanAt([], false), motionPerSecond: still })).toEqual({
      suffice: false,
      reason: "no keyframe in the clip",
    });
    // The source's motion ends before the segment does (a shorter curve): unknown is moving.
    expect(keyframesSuffice({ ...base, ...scan, motionPerSecond: still.slice(0, 40) }).suffice).toBe(false);
  });
});

describe("framesNeededWhateverTheFaces", () => {
  const options = { ...base, motionPerSecond: moving };

  it("sends a segment straight to the 4 fps pass when its keyframes are far apart where it moves", () => {
    // Keyframes every 8.3 s in the source: the segment (30–50 s) holds 33.2, 41.5 and 49.8.
    const sourceKeyframesSeconds = [0, 8.3, 16.6, 24.9, 33.2, 41.5, 49.8, 58.1];
    expect(framesNeededWhateverTheFaces({ ...options, sourceKeyframesSeconds })).toBe(
      "the picture moves between keyframes 0.0–3.2 s",
    );
    expect(
      framesNeededWhateverTheFaces({ ...options, sourceKeyframesSeconds, motionPerSecond: still }),
    ).toBeNull();
    expect(
      framesNeededWhateverTheFaces({
        ...options,
        sourceKeyframesSeconds,
        motionPerSecond: still,
        cutsSeconds: [5],
      }),
    ).toBe("a cut at 5.0 s between keyframes");
  });

  it("leaves it to the keyframe scan when faces on keyframes could be enough, or nothing is known", () => {
    const everyTwoSeconds = Array.from({ length: 40 }, (_, index) => index * 2);
    expect(framesNeededWhateverTheFaces({ ...options, sourceKeyframesSeconds: everyTwoSeconds })).toBeNull();
    expect(framesNeededWhateverTheFaces({ ...options, sourceKeyframesSeconds: undefined })).toBeNull();
  });
});
