import { describe, expect, it } from "vitest";
import { DEFAULT_SCORING_WEIGHTS } from "@/engine/defaults";
import { bracketedEvent, makeSignalCurve } from "@/engine/testing/signal-curves";
import { transcriptCoverage } from "./score-moment";
import { scoreRange } from "./score-range";
import { busiestWindow } from "./scoring-context";
import { combineSubscores, parseWeights, resolveWeights } from "./weights";

const weights = DEFAULT_SCORING_WEIGHTS;

describe("scoreRange", () => {
  it("scores a loud scene far above a steady stretch, and says why with the time", () => {
    const signals = makeSignalCurve({
      durationSeconds: 180,
      stretches: bracketedEvent({ startSeconds: 134, endSeconds: 154, loudnessLufs: -8 }),
    });
    const loud = scoreRange({ signals, range: { startSeconds: 134, endSeconds: 154 }, weights });
    const steady = scoreRange({ signals, range: { startSeconds: 20, endSeconds: 40 }, weights });
    expect(loud.score - steady.score).toBeGreaterThanOrEqual(30);
    expect(loud.subscores.audioEnergy).toBeGreaterThanOrEqual(90);
    expect(loud.subscores.chat).toBeNull();
    expect(loud.title).toBe("Loud burst at 2:14");
    expect(loud.reasons[0]).toEqual({
      atSeconds: 134,
      text: "Loud burst at 2:14 (−9 dBFS, 27 dB above the video's median)",
    });
    expect(steady.score).toBeLessThan(15);
    expect(steady.title).toBe("Quiet stretch from 0:20");
    expect(steady.reasons).toHaveLength(1);
    expect(steady.reasons[0]?.text).toMatch(/^Little stands out/);
  });

  it("titles a clip after its strongest reason, and a clip without one as quiet", () => {
    // Sound and motion of every strength, so ranges land on each side of every threshold.
    const signals = makeSignalCurve({
      durationSeconds: 600,
      stretches: Array.from({ length: 20 }, (_, index) => ({
        startSeconds: index * 30 + 5,
        endSeconds: index * 30 + 25,
        loudnessLufs: -40 + index * 1.6,
        motion: index % 3 === 0 ? 0.005 * index : 0,
      })),
    });
    const prefixes: Record<string, RegExp> = {
      "Loud burst": /^Loud burst/,
      "High-energy stretch": /^Loud throughout/,
      "Rapid cuts": /^Fast cuts/,
      "Fast action": /^(Strong motion|Movement peaks)/,
      "Talking point": /^Speech-like audio/,
      "Strong opening": /^Strong opening/,
    };
    let quiet = 0;
    for (let startSeconds = 0; startSeconds + 20 <= 600; startSeconds += 7) {
      const scored = scoreRange({ signals, range: { startSeconds, endSeconds: startSeconds + 20 }, weights });
      const named = Object.keys(prefixes).find((prefix) => scored.title.startsWith(prefix));
      if (named) {
        expect(scored.reasons.map((reason) => reason.text).join("\n"), scored.title).toMatch(
          new RegExp(prefixes[named]!.source, "m"),
        );
      } else {
        quiet++;
        expect(scored.title).toMatch(/^Quiet stretch from /);
        expect(scored.reasons[0]?.text).toMatch(/^Little stands out/);
      }
    }
    expect(quiet).toBeGreaterThan(0);
  });

  it("is comparable across videos: the same scene scores the same in a busy and in a calm video", () => {
    const scene = bracketedEvent({ startSeconds: 50, endSeconds: 70, motion: 0.06 });
    const calm = makeSignalCurve({ durationSeconds: 200, stretches: scene });
    const busy = makeSignalCurve({
      durationSeconds: 200,
      stretches: [...scene, { startSeconds: 100, endSeconds: 190, motion: 0.08, cutEverySeconds: 2 }],
    });
    const range = { startSeconds: 50, endSeconds: 70 };
    expect(scoreRange({ signals: busy, range, weights }).score).toBe(
      scoreRange({ signals: calm, range, weights }).score,
    );
  });

  it("names cuts and motion with their times", () => {
    const signals = makeSignalCurve({
      durationSeconds: 200,
      stretches: [
        { startSeconds: 62, endSeconds: 80, cutEverySeconds: 1 },
        { startSeconds: 109, endSeconds: 127, motion: 0.06 },
      ],
    });
    const cuts = scoreRange({ signals, range: { startSeconds: 62, endSeconds: 80 }, weights });
    expect(cuts.title).toBe("Rapid cuts at 1:02");
    expect(cuts.reasons.map((reason) => reason.text)).toContain(
      "Fast cuts: 10 scene changes between 1:02 and 1:11",
    );
    const motion = scoreRange({ signals, range: { startSeconds: 109, endSeconds: 127 }, weights });
    expect(motion.reasons.map((reason) => reason.text)).toContain("Strong motion from 1:49 to 2:07");
  });

  it("uses the transcript for speech when there is one", () => {
    const signals = makeSignalCurve({ durationSeconds: 60 });
    const range = { startSeconds: 10, endSeconds: 30 };
    const transcript = [
      {
        startSeconds: 10,
        endSeconds: 20,
        text: "So this is the moment where everything changed, believe me",
      },
      { startSeconds: 21, endSeconds: 29, text: "and then it happened." },
    ];
    const withTalk = scoreRange({ signals, range, weights, transcript });
    expect(withTalk.subscores.speech).toBe(100);
    expect(withTalk.title).toBe("“So this is the moment where…” at 0:10");
    expect(withTalk.reasons.map((reason) => reason.text)).toContain("Talk covers 90% of the clip, from 0:10");
    expect(scoreRange({ signals, range, weights }).subscores.speech).toBe(0);
  });

  it("hears speech-like audio without a transcript", () => {
    const signals = makeSignalCurve({
      durationSeconds: 60,
      stretches: [{ startSeconds: 5, endSeconds: 40, speech: true }],
    });
    const result = scoreRange({ signals, range: { startSeconds: 10, endSeconds: 30 }, weights });
    expect(result.subscores.speech).toBeGreaterThanOrEqual(90);
    expect(result.title).toBe("Talking point at 0:10");
  });

  it("fills the chat sub-score from chat activity and explains a spike", () => {
    const signals = makeSignalCurve({ durationSeconds: 120 });
    const messagesPerSecond = Array.from({ length: 120 }, (_, second) =>
      second >= 70 && second < 76 ? 6 : 0.3,
    );
    const spike = scoreRange({
      signals,
      range: { startSeconds: 65, endSeconds: 85 },
      weights,
      chat: { messagesPerSecond },
    });
    const calm = scoreRange({
      signals,
      range: { startSeconds: 10, endSeconds: 30 },
      weights,
      chat: { messagesPerSecond },
    });
    expect(spike.subscores.chat).toBeGreaterThanOrEqual(80);
    expect(calm.subscores.chat).toBeLessThan(20);
    expect(spike.score).toBeGreaterThan(calm.score);
    expect(spike.reasons.map((reason) => reason.text)).toContain(
      "Chat spike at 1:10: 6.0 messages/s (20.0× the video's typical rate)",
    );
    expect(spike.title).toBe("Chat erupts at 1:10");
  });

  it("rewards a clip that opens on the action over one that gets there late", () => {
    const signals = makeSignalCurve({
      durationSeconds: 120,
      stretches: bracketedEvent({ startSeconds: 60, endSeconds: 75, loudnessLufs: -8 }),
    });
    const early = scoreRange({ signals, range: { startSeconds: 60, endSeconds: 80 }, weights });
    const late = scoreRange({ signals, range: { startSeconds: 45, endSeconds: 65 }, weights });
    expect(early.subscores.hook).toBeGreaterThanOrEqual(80);
    expect(late.subscores.hook).toBeLessThan(20);
  });
});

describe("weights", () => {
  it("leaves chat out of the mean when it is null and follows custom weights", () => {
    const subscores = { hook: 100, audioEnergy: 0, visualDynamics: 0, speech: 0, chat: null };
    expect(combineSubscores(subscores, weights)).toBe(Math.round((100 * 0.25) / 0.85));
    expect(combineSubscores(subscores, { ...weights, hook: 0 })).toBe(0);
    expect(combineSubscores({ ...subscores, chat: 100 }, weights)).toBe(40);
  });

  it("fills partial weights from the defaults and rejects bad ones", () => {
    expect(resolveWeights({ hook: 1 })).toEqual({ ...weights, hook: 1 });
    expect(() => resolveWeights({ speech: -1 })).toThrow(/≥ 0/);
    expect(() =>
      resolveWeights({ hook: 0, audioEnergy: 0, visualDynamics: 0, speech: 0, chat: 0 }),
    ).toThrow();
  });

  it("reads weights as an operator writes them, naming what is wrong", () => {
    expect(parseWeights("hook=0.4, speech=.3")).toEqual({ ...weights, hook: 0.4, speech: 0.3 });
    expect(parseWeights("audioEnergy=1,hook=0,visualDynamics=0,speech=0,chat=0")).toEqual({
      hook: 0,
      audioEnergy: 1,
      visualDynamics: 0,
      speech: 0,
      chat: 0,
    });
    expect(() => parseWeights("hooks=0.3")).toThrow(/"hooks" is not a sub-score; the names are hook, /);
    expect(() => parseWeights("hook:0.3")).toThrow(/"hook:0.3" is not name=value/);
    expect(() => parseWeights("hook=-1")).toThrow(/hook=-1: the weight must be a number ≥ 0/);
    expect(() => parseWeights("hook=0x1")).toThrow(/must be a number/);
    expect(() => parseWeights("hook=0,audioEnergy=0,visualDynamics=0,speech=0,chat=0")).toThrow(/above 0/);
  });
});

describe("helpers", () => {
  it("measures transcript coverage with overlapping segments merged", () => {
    const coverage = transcriptCoverage({ startSeconds: 0, endSeconds: 10 }, [
      { startSeconds: -5, endSeconds: 4, text: "a" },
      { startSeconds: 3, endSeconds: 6, text: "b" },
      { startSeconds: 9, endSeconds: 20, text: "c" },
    ]);
    expect(coverage).toBeCloseTo(0.7, 5);
  });

  it("finds the busiest window", () => {
    expect(busiestWindow([0, 1, 5, 5, 0, 0], 2)).toEqual({ offset: 2, rate: 5 });
  });
});
