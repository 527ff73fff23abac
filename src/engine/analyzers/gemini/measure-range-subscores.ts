import type {
  ChatActivity,
  Reason,
  ScoringWeights,
  SignalCurve,
  SubscoreName,
  Subscores,
  TimeRange,
} from "@/engine/types";
import { clamp, lengthSeconds, roundSeconds } from "./time-ranges";

/**
 * A read-out of the local signals over a range the local analyzer did not score itself — a
 * clip only Gemini found. Matched clips use the local analyzer's own sub-scores; this gives
 * Gemini-only clips a local side for the fused score, on absolute scales (LUFS, motion,
 * cuts per minute) so the result stays comparable across videos.
 *
 * Scales (each maps to 0..1, then ×100):
 * - audioEnergy: momentary loudness, −45 LUFS → 0 … −10 LUFS → 1; 60 % mean, 40 % loudest second.
 * - visualDynamics: 60 % mean motion (0.12 mean inter-frame difference → 1),
 *   40 % scene cuts (20 per minute → 1).
 * - speech: share of seconds that are neither in a detected silence nor below −50 dBFS RMS
 *   (presence of sound, the best proxy without a voice detector).
 * - hook: the first 3 s — 50 % their loudness, 50 % their strongest visual change
 *   (highest scene score, or motion on the same scale as above).
 * - chat: messages per second in the range, 1/s → 1 (null without chat).
 * Score: the weighted mean of the sub-scores with `weights`, leaving chat out when null.
 */
export type RangeReadout = { subscores: Subscores; score: number; reasons: Reason[] };

const HOOK_SECONDS = 3;
const QUIET_LUFS = -45;
const LOUD_LUFS = -10;
const FULL_MOTION = 0.12;
const FULL_CUTS_PER_MINUTE = 20;
const SOUND_FLOOR_DB = -50;
const FULL_CHAT_PER_SECOND = 1;

export function measureRangeSubscores(options: {
  signals: SignalCurve;
  range: TimeRange;
  weights: ScoringWeights;
  chat?: ChatActivity;
}): RangeReadout {
  const { signals, range, weights, chat } = options;
  const seconds = secondIndices(range, signals.durationSeconds);
  const hookSeconds = secondIndices(
    {
      startSeconds: range.startSeconds,
      endSeconds: Math.min(range.endSeconds, range.startSeconds + HOOK_SECONDS),
    },
    signals.durationSeconds,
  );
  const loudness = (i: number) => loudnessUnit(signals.momentaryLufs[i]);
  const motion = (i: number) => clamp((signals.motion[i] ?? 0) / FULL_MOTION, 0, 1);

  const loudnessValues = seconds.map(loudness);
  const audioEnergy = 0.6 * mean(loudnessValues) + 0.4 * max(loudnessValues);

  const cuts = signals.sceneCutsSeconds.filter((t) => t >= range.startSeconds && t < range.endSeconds);
  const minutes = Math.max(lengthSeconds(range), 1) / 60;
  const visualDynamics =
    0.6 * mean(seconds.map(motion)) + 0.4 * clamp(cuts.length / minutes / FULL_CUTS_PER_MINUTE, 0, 1);

  const withSound = seconds.filter(
    (i) => (signals.rmsDb[i] ?? -90) > SOUND_FLOOR_DB && !insideSilence(i, signals.silences),
  );
  const speech = seconds.length > 0 ? withSound.length / seconds.length : 0;

  const hookVisual = max(hookSeconds.map((i) => Math.max(signals.sceneScore[i] ?? 0, motion(i))));
  const hook = 0.5 * mean(hookSeconds.map(loudness)) + 0.5 * hookVisual;

  const chatRates = chat ? seconds.map((i) => chat.messagesPerSecond[i] ?? 0) : null;
  const subscores: Subscores = {
    hook: toScore(hook),
    audioEnergy: toScore(audioEnergy),
    visualDynamics: toScore(visualDynamics),
    speech: toScore(speech),
    chat: chatRates ? toScore(clamp(mean(chatRates) / FULL_CHAT_PER_SECOND, 0, 1)) : null,
  };

  return {
    subscores,
    score: weightedScore(subscores, weights),
    reasons: describeSignals({ signals, range, seconds, cuts }),
  };
}

/** Weighted mean of the sub-scores present (chat is skipped when null), rounded, 0..100. */
export function weightedScore(subscores: Subscores, weights: ScoringWeights): number {
  let total = 0;
  let weightSum = 0;
  for (const name of Object.keys(subscores) as SubscoreName[]) {
    const value = subscores[name];
    const weight = Math.max(0, weights[name] ?? 0);
    if (value === null || weight === 0) continue;
    total += weight * value;
    weightSum += weight;
  }
  return weightSum > 0 ? Math.round(clamp(total / weightSum, 0, 100)) : 0;
}

function describeSignals(options: {
  signals: SignalCurve;
  range: TimeRange;
  seconds: number[];
  cuts: number[];
}): Reason[] {
  const { signals, range, seconds, cuts } = options;
  const reasons: Reason[] = [];
  const loudest = argMax(seconds, (i) => signals.momentaryLufs[i] ?? -70);
  const loudestLufs = loudest === undefined ? undefined : signals.momentaryLufs[loudest];
  if (loudest !== undefined && loudestLufs !== undefined && loudestLufs >= -16) {
    reasons.push({ atSeconds: loudest, text: `Loud moment (${Math.round(loudestLufs)} LUFS)` });
  }
  if (cuts.length >= 3) {
    reasons.push({
      atSeconds: roundSeconds(cuts[0]!),
      text: `${cuts.length} scene cuts in ${Math.round(lengthSeconds(range))} s`,
    });
  }
  const busiest = argMax(seconds, (i) => signals.motion[i] ?? 0);
  if (busiest !== undefined && (signals.motion[busiest] ?? 0) >= 0.6 * FULL_MOTION) {
    reasons.push({ atSeconds: busiest, text: "Fast on-screen motion" });
  }
  return reasons.map((reason) => ({
    atSeconds: roundSeconds(clamp(reason.atSeconds, range.startSeconds, range.endSeconds)),
    text: reason.text,
  }));
}

/** Indices of the whole seconds a range covers, within the signal arrays. */
function secondIndices(range: TimeRange, durationSeconds: number): number[] {
  const first = Math.max(0, Math.floor(range.startSeconds));
  const last = Math.min(Math.ceil(durationSeconds), Math.ceil(range.endSeconds)) - 1;
  const indices: number[] = [];
  for (let i = first; i <= last; i++) indices.push(i);
  return indices;
}

function insideSilence(second: number, silences: TimeRange[]): boolean {
  // A second counts as silent when most of it lies inside a silence.
  const slot = { startSeconds: second, endSeconds: second + 1 };
  return silences.some(
    (silence) =>
      Math.min(slot.endSeconds, silence.endSeconds) - Math.max(slot.startSeconds, silence.startSeconds) > 0.5,
  );
}

function loudnessUnit(lufs: number | undefined): number {
  return clamp(((lufs ?? -70) - QUIET_LUFS) / (LOUD_LUFS - QUIET_LUFS), 0, 1);
}

function toScore(unit: number): number {
  return Math.round(clamp(unit, 0, 1) * 100);
}

function mean(values: number[]): number {
  return values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}

function max(values: number[]): number {
  return values.length > 0 ? Math.max(...values) : 0;
}

function argMax(indices: number[], score: (i: number) => number): number | undefined {
  let best: number | undefined;
  for (const i of indices) if (best === undefined || score(i) > score(best)) best = i;
  return best;
}
