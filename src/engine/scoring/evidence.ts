import { mean } from "@/engine/curve-math";
import type { TimeRange } from "@/engine/types";
import { busiestWindow, type ScoringContext } from "./scoring-context";

/** What happens inside one clip, located in time: the material reasons and titles are made of. */
export type MomentEvidence = {
  loudest: { atSeconds: number; rmsDb: number; aboveMedianDb: number; contrast: number; loudness: number };
  /** The densest 10 s of cuts in the clip. */
  cuts: { count: number; totalInClip: number; fromSeconds: number; toSeconds: number } | null;
  /** The longest run of strong motion (motion feature ≥ 0.6), else the single strongest second. */
  motion: { fromSeconds: number; toSeconds: number; peakAtSeconds: number; peak: number } | null;
  /** Share of the clip's seconds that sound like speech (or are covered by the transcript). */
  speech: { share: number; firstAtSeconds: number; firstWords: string | null } | null;
  chat: { atSeconds: number; rate: number; timesTypical: number } | null;
  /** The clip's most interesting second. */
  peakAtSeconds: number;
};

/** The first seconds of a clip that decide whether people keep watching. */
export const HOOK_SECONDS = 3;

export type OpeningChange = { atSeconds: number; kind: "cut" | "sound-returns" | "loudness-jump" };

/** A change within the first 1.5 s of a clip (or just before it) that makes a clean, sharp start. */
export function findOpeningChange(range: TimeRange, context: ScoringContext): OpeningChange | undefined {
  const from = range.startSeconds - 0.5;
  const to = range.startSeconds + 1.5;
  const cut = context.signals.sceneCutsSeconds.find((time) => time >= from && time <= to);
  if (cut !== undefined) return { atSeconds: cut, kind: "cut" };
  const silence = context.signals.silences.find((item) => item.endSeconds >= from && item.endSeconds <= to);
  if (silence) return { atSeconds: silence.endSeconds, kind: "sound-returns" };
  const second = Math.floor(range.startSeconds);
  const before = context.signals.momentaryLufs[second - 1];
  const after = Math.max(
    context.signals.momentaryLufs[second] ?? -70,
    context.signals.momentaryLufs[second + 1] ?? -70,
  );
  if (before !== undefined && after - before >= 10) return { atSeconds: second, kind: "loudness-jump" };
  return undefined;
}

const CUT_WINDOW_SECONDS = 10;
const STRONG_MOTION = 0.6;
const SPEECH_SECOND = 0.3;

export function gatherEvidence(range: TimeRange, context: ScoringContext): MomentEvidence {
  const { signals, features } = context;
  const first = Math.max(0, Math.floor(range.startSeconds));
  const last = Math.max(first, Math.min(features.seconds - 1, Math.ceil(range.endSeconds - 1e-6) - 1));
  const seconds: number[] = [];
  for (let second = first; second <= last; second += 1) seconds.push(second);
  const valueAt = (values: readonly number[], second: number) => values[second] ?? 0;
  const argMax = (values: readonly number[]) =>
    seconds.reduce(
      (best, second) => (valueAt(values, second) > valueAt(values, best) ? second : best),
      first,
    );

  const loudSecond = argMax(signals.momentaryLufs);
  const rmsDb = signals.rmsDb[loudSecond] ?? -90;
  const loudest = {
    atSeconds: loudSecond,
    rmsDb,
    aboveMedianDb: rmsDb - features.medianRmsDb,
    contrast: valueAt(features.loudnessContrast, loudSecond),
    loudness: valueAt(features.loudness, loudSecond),
  };

  const cutsInClip = signals.sceneCutsSeconds.filter(
    (time) => time >= range.startSeconds && time < range.endSeconds,
  );
  let cuts: MomentEvidence["cuts"] = null;
  for (let index = 0; index < cutsInClip.length; index += 1) {
    const from = cutsInClip[index] ?? 0;
    const inWindow = cutsInClip.filter((time) => time >= from && time < from + CUT_WINDOW_SECONDS);
    if (!cuts || inWindow.length > cuts.count) {
      cuts = {
        count: inWindow.length,
        totalInClip: cutsInClip.length,
        fromSeconds: from,
        toSeconds: inWindow.at(-1) ?? from,
      };
    }
  }

  let motion: MomentEvidence["motion"] = null;
  let runStart: number | undefined;
  for (const second of [...seconds, last + 1]) {
    const strong = second <= last && valueAt(features.motion, second) >= STRONG_MOTION;
    if (strong && runStart === undefined) runStart = second;
    if (!strong && runStart !== undefined) {
      const run = { fromSeconds: runStart, toSeconds: second };
      if (!motion || run.toSeconds - run.fromSeconds > motion.toSeconds - motion.fromSeconds) {
        motion = { ...run, peakAtSeconds: runStart, peak: 0 };
      }
      runStart = undefined;
    }
  }
  const motionPeak = argMax(features.motion);
  const motionPeakValue = valueAt(features.motion, motionPeak);
  if (motion) motion = { ...motion, peakAtSeconds: motionPeak, peak: motionPeakValue };
  else if (motionPeakValue > 0) {
    motion = {
      fromSeconds: motionPeak,
      toSeconds: motionPeak + 1,
      peakAtSeconds: motionPeak,
      peak: motionPeakValue,
    };
  }

  let speech: MomentEvidence["speech"] = null;
  const segments = (context.transcript ?? []).filter(
    (segment) => segment.endSeconds > range.startSeconds && segment.startSeconds < range.endSeconds,
  );
  if (segments.length > 0) {
    const firstSegment = segments[0];
    const covered = segments.reduce(
      (sum, segment) =>
        sum +
        Math.min(range.endSeconds, segment.endSeconds) -
        Math.max(range.startSeconds, segment.startSeconds),
      0,
    );
    speech = {
      share: Math.min(1, covered / Math.max(1e-6, range.endSeconds - range.startSeconds)),
      firstAtSeconds: Math.max(range.startSeconds, firstSegment?.startSeconds ?? range.startSeconds),
      firstWords: firstSegment ? firstWords(firstSegment.text, 6) : null,
    };
  } else {
    const speaking = seconds.filter((second) => valueAt(features.speech, second) >= SPEECH_SECOND);
    if (speaking.length > 0) {
      speech = {
        share: speaking.length / seconds.length,
        firstAtSeconds: speaking[0] ?? first,
        firstWords: null,
      };
    }
  }

  let chat: MomentEvidence["chat"] = null;
  const rates = context.chat?.messagesPerSecond;
  if (rates && rates.length > 0) {
    const inClip = seconds.map((second) => rates[second] ?? 0);
    const busiest = busiestWindow(inClip, 5);
    if (busiest.rate > 0) {
      chat = {
        atSeconds: first + busiest.offset,
        rate: busiest.rate,
        timesTypical: busiest.rate / Math.max(0.01, context.chatTypicalRate ?? mean(rates)),
      };
    }
  }

  return { loudest, cuts, motion, speech, chat, peakAtSeconds: argMax(context.interest) };
}

/** The first `count` words of what is said, with "…" when there is more: a title's quote. */
export function firstWords(text: string, count: number): string {
  const words = text.replace(/\s+/g, " ").trim().split(" ");
  const head = words
    .slice(0, count)
    .join(" ")
    .replace(/[,;:.!?]+$/, "");
  return words.length > count ? `${head}…` : head;
}
