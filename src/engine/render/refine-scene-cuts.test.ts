import { describe, expect, it } from "vitest";
import type { MotionSample } from "./choose-subject-plan";
import { pickThumbnailTime } from "./pick-thumbnail-time";
import { refineSceneCuts } from "./refine-scene-cuts";

function samples(differenceAt: (timeSeconds: number) => number): MotionSample[] {
  return Array.from({ length: 40 }, (_, index) => {
    const timeSeconds = 0.125 + index * 0.25;
    return {
      timeSeconds,
      meanDifference: differenceAt(timeSeconds),
      energy: 0,
      centerX: null,
      centerY: null,
      spreadX: 0,
    };
  });
}

describe("refineSceneCuts", () => {
  it("moves a late cut to the big picture change near it", () => {
    const motionSamples = samples((t) => (t === 4.125 ? 0.4 : 0.01));
    expect(refineSceneCuts({ cutsSeconds: [5], changes: motionSamples })).toEqual([4.125]);
  });

  it("keeps a cut with no clear change nearby, and ignores changes too far away", () => {
    const motionSamples = samples((t) => (t === 1.125 ? 0.5 : 0.02));
    expect(refineSceneCuts({ cutsSeconds: [5], changes: motionSamples })).toEqual([5]);
    // High motion everywhere: the peak is not 3× the typical change, so it is not a cut.
    const busy = samples((t) => (t === 5.125 ? 0.3 : 0.2));
    expect(refineSceneCuts({ cutsSeconds: [5], changes: busy })).toEqual([5]);
  });

  it("merges two given cuts that land on the same change", () => {
    const motionSamples = samples((t) => (t === 3.125 ? 0.4 : 0.01));
    expect(refineSceneCuts({ cutsSeconds: [2.5, 3.8], changes: motionSamples })).toEqual([3.125]);
  });
});

describe("pickThumbnailTime", () => {
  it("takes the strongest highlight away from cuts and edges", () => {
    expect(
      pickThumbnailTime({
        highlights: [
          { timeSeconds: 0.1, weight: 9 }, // too close to the start
          { timeSeconds: 3, weight: 8 }, // next to a cut
          { timeSeconds: 9.8, weight: 9 }, // too close to the end
          { timeSeconds: 5, weight: 2 },
          { timeSeconds: 6, weight: 5 },
        ],
        durationSeconds: 10,
        cutsSeconds: [3.2],
      }),
    ).toBe(6);
  });

  it("falls back to the hook's first second", () => {
    expect(pickThumbnailTime({ highlights: [], durationSeconds: 30, cutsSeconds: [] })).toBe(1);
    expect(pickThumbnailTime({ highlights: [], durationSeconds: 1, cutsSeconds: [] })).toBe(0.5);
  });
});
