import { describe, expect, it } from "vitest";
import { bracketedEvent, makeSignalCurve } from "@/engine/testing/signal-curves";
import { collectBoundaries } from "./boundaries";
import { findCandidateMoments, findCandidatesInGaps, findPeaks, fitClip } from "./find-candidate-moments";
import { computeInterest } from "./interest-curve";
import { pickMoments } from "./pick-moments";
import { computeSecondFeatures } from "./second-features";

const limits = { minSeconds: 15, maxSeconds: 60 };

function candidatesFor(curve: ReturnType<typeof makeSignalCurve>, options = limits) {
  const interest = computeInterest(computeSecondFeatures(curve));
  return {
    interest,
    candidates: findCandidateMoments({
      interest,
      boundaries: collectBoundaries(curve),
      durationSeconds: curve.durationSeconds,
      ...options,
    }),
  };
}

describe("findCandidateMoments", () => {
  it("puts a clip exactly on a bracketed event, edges on the pauses", () => {
    const curve = makeSignalCurve({
      durationSeconds: 120,
      stretches: bracketedEvent({ startSeconds: 40, endSeconds: 62, loudnessLufs: -8 }),
    });
    const [best] = candidatesFor(curve).candidates;
    expect(best).toMatchObject({ startSeconds: 40, endSeconds: 62 });
  });

  it("lengthens a short burst to the minimum, mostly before its peak, onto clean edges", () => {
    const curve = makeSignalCurve({
      durationSeconds: 120,
      stretches: [
        { startSeconds: 60, endSeconds: 63, loudnessLufs: -6 },
        { startSeconds: 50, endSeconds: 51, silent: true },
      ],
    });
    const [best] = candidatesFor(curve).candidates;
    expect(best).toBeDefined();
    const length = (best?.endSeconds ?? 0) - (best?.startSeconds ?? 0);
    expect(length).toBeGreaterThanOrEqual(15);
    expect(length).toBeLessThanOrEqual(20);
    expect(best?.startSeconds).toBeLessThanOrEqual(60);
    expect(best?.endSeconds).toBeGreaterThanOrEqual(63);
  });

  it("cuts a long eventful stretch to the maximum length", () => {
    const curve = makeSignalCurve({
      durationSeconds: 300,
      stretches: [{ startSeconds: 50, endSeconds: 200, motion: 0.06 }],
    });
    const { candidates } = candidatesFor(curve);
    expect(candidates.some((candidate) => candidate.startSeconds >= 49 && candidate.endSeconds <= 201)).toBe(
      true,
    );
    for (const candidate of candidates) {
      expect(candidate.endSeconds - candidate.startSeconds).toBeLessThanOrEqual(60);
      expect(candidate.endSeconds - candidate.startSeconds).toBeGreaterThanOrEqual(15);
    }
  });

  it("respects custom limits", () => {
    const curve = makeSignalCurve({
      durationSeconds: 200,
      stretches: [
        { startSeconds: 20, endSeconds: 90, loudnessLufs: -10 },
        { startSeconds: 120, endSeconds: 124, motion: 0.07 },
      ],
    });
    const { candidates } = candidatesFor(curve, { minSeconds: 20, maxSeconds: 30 });
    expect(candidates.length).toBeGreaterThan(0);
    for (const candidate of candidates) {
      const length = candidate.endSeconds - candidate.startSeconds;
      expect(length).toBeGreaterThanOrEqual(20 - 1e-6);
      expect(length).toBeLessThanOrEqual(30 + 1e-6);
    }
  });

  it("makes the whole video the one candidate when it is shorter than the minimum", () => {
    const curve = makeSignalCurve({ durationSeconds: 1 });
    expect(candidatesFor(curve).candidates).toEqual([{ startSeconds: 0, endSeconds: 1, peakSeconds: 0 }]);
  });

  it("keeps every candidate inside the video", () => {
    const curve = makeSignalCurve({
      durationSeconds: 40,
      stretches: [
        { startSeconds: 0, endSeconds: 3, loudnessLufs: -5 },
        { startSeconds: 37, endSeconds: 40, motion: 0.08 },
      ],
    });
    const { candidates } = candidatesFor(curve);
    expect(candidates.length).toBeGreaterThan(0);
    for (const candidate of candidates) {
      expect(candidate.startSeconds).toBeGreaterThanOrEqual(0);
      expect(candidate.endSeconds).toBeLessThanOrEqual(40);
      expect(candidate.endSeconds - candidate.startSeconds).toBeGreaterThanOrEqual(15);
    }
  });
});

describe("findCandidatesInGaps", () => {
  it("offers a window in every uncovered stretch long enough for a clip", () => {
    const curve = makeSignalCurve({ durationSeconds: 100 });
    const interest = computeInterest(computeSecondFeatures(curve));
    const gaps = findCandidatesInGaps({
      interest,
      boundaries: collectBoundaries(curve),
      covered: [{ startSeconds: 20, endSeconds: 70 }],
      durationSeconds: 100,
      ...limits,
    });
    expect(gaps).toHaveLength(2);
    expect(gaps[0]?.startSeconds).toBeGreaterThanOrEqual(0);
    expect(gaps[0]?.endSeconds).toBeLessThanOrEqual(20);
    expect(gaps[1]?.startSeconds).toBeGreaterThanOrEqual(70);
    expect(gaps[1]?.endSeconds).toBeLessThanOrEqual(100);
  });
});

describe("findPeaks", () => {
  it("returns local maxima highest first, a plateau once", () => {
    expect(findPeaks([0, 1, 0, 3, 3, 1, 2])).toEqual([3, 6, 1]);
    expect(findPeaks([1, 1, 1])).toEqual([0]);
  });
});

describe("fitClip", () => {
  it("prefers a pause edge over a slightly nearer cut", () => {
    const curve = makeSignalCurve({
      durationSeconds: 100,
      stretches: [
        { startSeconds: 29, endSeconds: 30, silent: true },
        { startSeconds: 30, endSeconds: 55, loudnessLufs: -8 },
        { startSeconds: 31.5, endSeconds: 32, cutEverySeconds: 1 },
      ],
    });
    const interest = computeInterest(computeSecondFeatures(curve));
    const fitted = fitClip({
      startSeconds: 31,
      endSeconds: 55,
      peakSeconds: 40,
      boundaries: collectBoundaries(curve),
      interest,
      durationSeconds: 100,
      ...limits,
    });
    expect(fitted.startSeconds).toBe(30);
  });
});

describe("pickMoments", () => {
  it("keeps the best non-overlapping candidates, at most N, best first", () => {
    const picked = pickMoments(
      [
        { startSeconds: 0, endSeconds: 20, score: 40 },
        { startSeconds: 10, endSeconds: 30, score: 90 },
        { startSeconds: 30, endSeconds: 50, score: 60 },
        { startSeconds: 60, endSeconds: 80, score: 10 },
      ],
      2,
    );
    expect(picked.map((moment) => moment.score)).toEqual([90, 60]);
  });
});
