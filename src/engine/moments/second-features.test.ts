import { describe, expect, it } from "vitest";
import { makeSignalCurve } from "@/engine/testing/signal-curves";
import { computeInterest, toTimelineCurve } from "./interest-curve";
import { computeSecondFeatures } from "./second-features";

describe("computeSecondFeatures", () => {
  it("keeps a steady video low everywhere (absolute scales, not ranks)", () => {
    const features = computeSecondFeatures(makeSignalCurve({ durationSeconds: 60 }));
    const interest = computeInterest(features);
    expect(Math.max(...interest)).toBeLessThan(0.15);
    expect(Math.max(...features.visual)).toBe(0);
  });

  it("scores the same event the same whatever surrounds it (beyond its contrast)", () => {
    const event = { startSeconds: 30, endSeconds: 40, motion: 0.05 };
    const alone = computeInterest(
      computeSecondFeatures(makeSignalCurve({ durationSeconds: 60, stretches: [event] })),
    );
    const busy = computeInterest(
      computeSecondFeatures(
        makeSignalCurve({
          durationSeconds: 60,
          stretches: [event, { startSeconds: 0, endSeconds: 20, motion: 0.08 }],
        }),
      ),
    );
    expect(busy[35]).toBeCloseTo(alone[35] ?? 0, 5);
  });

  it("rates loudness against the video's median and in absolute terms", () => {
    const features = computeSecondFeatures(
      makeSignalCurve({
        durationSeconds: 60,
        stretches: [{ startSeconds: 10, endSeconds: 12, loudnessLufs: -10 }],
      }),
    );
    expect(features.medianLufs).toBe(-35);
    expect(features.loudnessContrast[10]).toBe(1);
    expect(features.audio[10]).toBeCloseTo(1, 5);
    expect(features.audio[30]).toBeLessThan(0.15);
  });

  it("counts cuts around each second and maps motion on a log scale", () => {
    const features = computeSecondFeatures(
      makeSignalCurve({
        durationSeconds: 60,
        stretches: [
          { startSeconds: 10, endSeconds: 20, cutEverySeconds: 1 },
          { startSeconds: 30, endSeconds: 40, motion: 0.08 },
          { startSeconds: 40, endSeconds: 50, motion: 0.02 },
        ],
      }),
    );
    expect(features.cuts[15]).toBe(1);
    expect(features.motion[35]).toBe(1);
    expect(features.motion[45]).toBeGreaterThan(0.4);
    expect(features.motion[45]).toBeLessThan(0.7);
  });

  it("hears speech in big syllable swings with voice-band energy, not in steady noise", () => {
    const features = computeSecondFeatures(
      makeSignalCurve({
        durationSeconds: 30,
        stretches: [{ startSeconds: 5, endSeconds: 15, speech: true }],
      }),
    );
    expect(features.speech[10]).toBeGreaterThan(0.8);
    expect(features.speech[20]).toBe(0);
  });

  it("handles a silent, one-second source", () => {
    const curve = makeSignalCurve({
      durationSeconds: 1,
      stretches: [{ startSeconds: 0, endSeconds: 1, silent: true }],
    });
    const features = computeSecondFeatures(curve);
    expect(features.seconds).toBe(1);
    expect(features.medianLufs).toBe(-70);
    expect(toTimelineCurve(computeInterest(features))).toHaveLength(1);
  });
});
