import { describe, expect, it } from "vitest";
import type { SignalCurve } from "@/engine/types";
import { makeSignals, WEIGHTS } from "./gemini-test-fixtures";
import { measureRangeSubscores, weightedScore } from "./measure-range-subscores";

function flatSignals(durationSeconds: number): SignalCurve {
  const fill = (value: number) => Array.from({ length: durationSeconds }, () => value);
  return {
    mode: "full",
    durationSeconds,
    rmsDb: fill(-90),
    peakDb: fill(-90),
    momentaryLufs: fill(-70),
    sceneScore: fill(0),
    motion: fill(0),
    silences: [{ startSeconds: 0, endSeconds: durationSeconds }],
    sceneCutsSeconds: [],
  };
}

describe("measureRangeSubscores", () => {
  it("scores a loud, busy stretch high and explains why", () => {
    const readout = measureRangeSubscores({
      signals: makeSignals(),
      range: { startSeconds: 40, endSeconds: 55 },
      weights: WEIGHTS,
    });
    // −12 LUFS throughout: (−12 + 45) / 35 = 0.943 → 94.
    expect(readout.subscores.audioEnergy).toBe(94);
    // motion 0.15 ≥ 0.12 → 1; 5 cuts in 15 s = 20/min → 1.
    expect(readout.subscores.visualDynamics).toBe(100);
    expect(readout.subscores.speech).toBe(100);
    expect(readout.subscores.chat).toBeNull();
    expect(readout.score).toBeGreaterThan(80);
    expect(readout.reasons.map((r) => r.text)).toEqual([
      "Loud moment (-12 LUFS)",
      "5 scene cuts in 15 s",
      "Fast on-screen motion",
    ]);
    for (const reason of readout.reasons) {
      expect(reason.atSeconds).toBeGreaterThanOrEqual(40);
      expect(reason.atSeconds).toBeLessThanOrEqual(55);
    }
  });

  it("scores a silent, still stretch at zero with no reasons", () => {
    const readout = measureRangeSubscores({
      signals: flatSignals(60),
      range: { startSeconds: 10, endSeconds: 30 },
      weights: WEIGHTS,
    });
    expect(readout.subscores).toEqual({ hook: 0, audioEnergy: 0, visualDynamics: 0, speech: 0, chat: null });
    expect(readout.score).toBe(0);
    expect(readout.reasons).toEqual([]);
  });

  it("is the same on an absolute scale whatever else the video holds", () => {
    // The quiet stretch 0–20 of a video with a loud burst scores as it would alone.
    const inBusyVideo = measureRangeSubscores({
      signals: makeSignals(),
      range: { startSeconds: 0, endSeconds: 20 },
      weights: WEIGHTS,
    });
    const quiet = makeSignals();
    const alone: SignalCurve = {
      ...quiet,
      momentaryLufs: quiet.momentaryLufs.map(() => -38),
      rmsDb: quiet.rmsDb.map(() => -35),
      motion: quiet.motion.map(() => 0.01),
      sceneScore: quiet.sceneScore.map(() => 0.02),
      sceneCutsSeconds: [],
    };
    expect(
      measureRangeSubscores({ signals: alone, range: { startSeconds: 0, endSeconds: 20 }, weights: WEIGHTS }),
    ).toEqual(inBusyVideo);
  });
});

describe("weightedScore", () => {
  it("leaves chat out when there is none", () => {
    const subscores = { hook: 100, audioEnergy: 0, visualDynamics: 0, speech: 0, chat: null };
    // 0.3 / (0.3 + 0.25 + 0.2 + 0.15) = 0.333…
    expect(weightedScore(subscores, WEIGHTS)).toBe(33);
    expect(weightedScore({ ...subscores, chat: 100 }, WEIGHTS)).toBe(40);
  });
});
