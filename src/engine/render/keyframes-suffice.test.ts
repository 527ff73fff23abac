import { describe, expect, it } from "vitest";
import type { KeyframeScan } from "./analyze-subject";
import { keyframesSuffice, STILL_MOTION } from "./keyframes-suffice";

const face = { x: 0.4, y: 0.3, width: 0.1, height: 0.2, score: 0.9 };

function scanAt(timesSeconds: number[], withFaces: boolean): KeyframeScan {
  return {
    keyframeTimesSeconds: timesSeconds,
    faceSamples: timesSeconds.map((timeSeconds) => ({ timeSeconds, faces: withFaces ? [face] : [] })),
    changes: [],
  };
}

const still = Array.from({ length: 120 }, () => STILL_MOTION / 3);
const moving = Array.from({ length: 120 }, () => STILL_MOTION * 10);
const base = { durationSeconds: 20, startSeconds: 30, cutsSeconds: [] };

describe("keyframesSuffice", () => {
  it("takes faces from keyframes at most 2 s apart, however much the picture moves", () => {
    const dense = scanAt([0, 2, 4, 6, 8, 10, 12, 14, 16, 18], true);
    expect(keyframesSuffice({ ...base, scan: dense, motionPerSecond: moving }).suffice).toBe(true);
  });

  it("samples frames when faces are on keyframes far apart and the picture moves between them", () => {
    const sparse = scanAt([0, 8.3, 16.6], true);
    const verdict = keyframesSuffice({ ...base, scan: sparse, motionPerSecond: moving });
    expect(verdict).toEqual({
      suffice: false,
      reason: "faces, and the picture moves between keyframes 0.0–8.3 s",
    });
    // Still between them, the keyframes show all there is.
    expect(keyframesSuffice({ ...base, scan: sparse, motionPerSecond: still }).suffice).toBe(true);
  });

  it("without faces, needs a still picture throughout (motion is followed only from sampled frames)", () => {
    const dense = scanAt([0, 2, 4, 6, 8, 10, 12, 14, 16, 18], false);
    expect(keyframesSuffice({ ...base, scan: dense, motionPerSecond: moving }).suffice).toBe(false);
    expect(keyframesSuffice({ ...base, scan: dense, motionPerSecond: still })).toEqual({
      suffice: true,
      reason: "no faces on keyframes and a still picture",
    });
    // One moving second of the segment (source second 45 = 15 s into it) is enough to sample.
    const oneMoving = still.map((value, second) => (second === 45 ? STILL_MOTION * 2 : value));
    expect(keyframesSuffice({ ...base, scan: dense, motionPerSecond: oneMoving }).suffice).toBe(false);
  });

  it("ignores a second the segment only grazes", () => {
    // The segment starts 2 ms before second 30: second 29, which moves, overlaps it by 2 ms.
    const graze = still.map((value, second) => (second === 29 ? 0.5 : value));
    const verdict = keyframesSuffice({
      ...base,
      startSeconds: 29.998,
      scan: scanAt([0, 8, 16], false),
      motionPerSecond: graze,
    });
    expect(verdict.suffice).toBe(true);
  });

  it("samples frames when a cut falls between keyframes (an unseen shot), not at one", () => {
    const scan = scanAt([0, 8, 16], true);
    expect(keyframesSuffice({ ...base, scan, motionPerSecond: still, cutsSeconds: [8.05] }).suffice).toBe(
      true,
    );
    expect(keyframesSuffice({ ...base, scan, motionPerSecond: still, cutsSeconds: [11] })).toEqual({
      suffice: false,
      reason: "a cut at 11.0 s between keyframes",
    });
  });

  it("samples frames without the source's motion or without any keyframe", () => {
    const scan = scanAt([0, 8, 16], false);
    expect(keyframesSuffice({ ...base, scan, motionPerSecond: undefined }).suffice).toBe(false);
    expect(keyframesSuffice({ ...base, scan: scanAt([], false), motionPerSecond: still })).toEqual({
      suffice: false,
      reason: "no keyframe in the clip",
    });
    // The source's motion ends before the segment does (a shorter curve): unknown is moving.
    expect(keyframesSuffice({ ...base, scan, motionPerSecond: still.slice(0, 40) }).suffice).toBe(false);
  });
});
