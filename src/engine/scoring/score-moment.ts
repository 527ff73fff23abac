import { clamp, mean, quantile, ramp, sliceSeconds } from "@/engine/curve-math";
import type { Reason, Subscores, TimeRange, TranscriptSegment } from "@/engine/types";
import { findOpeningChange, gatherEvidence, HOOK_SECONDS } from "./evidence";
import { buildReasons, rankReasons } from "./reasons";
import { busiestWindow, type ScoringContext } from "./scoring-context";
import { buildTitle } from "./title";
import { combineSubscores } from "./weights";

export type MomentScore = {
  score: number;
  subscores: Subscores;
  reasons: Reason[];
  title: string;
  /**
   * False when the signals show nothing worth a reason (the one reason then says so), or only
   * an opening on a change: a quiet stretch that starts at the cut ending a lively scene.
   */
  standsOut: boolean;
};

/**
 * Sub-scores, score, reasons and title of one clip. Every sub-score is on an absolute scale
 * (see `SecondFeatures`), so scores compare across videos.
 */
export function scoreMoment(range: TimeRange, context: ScoringContext): MomentScore {
  const subscores: Subscores = {
    hook: hookScore(range, context),
    audioEnergy: channelScore(sliceSeconds(context.features.audio, range.startSeconds, range.endSeconds)),
    visualDynamics: channelScore(sliceSeconds(context.features.visual, range.startSeconds, range.endSeconds)),
    speech: speechScore(range, context),
    chat: chatScore(range, context),
  };
  const score = combineSubscores(subscores, context.weights);
  const evidence = gatherEvidence(range, context);
  const opening = findOpeningChange(range, context);
  const ranked = rankReasons({ range, subscores, evidence, opening, context });
  return {
    score,
    subscores,
    reasons: buildReasons(ranked, evidence),
    title: buildTitle({ ranked, range, evidence, hasTranscript: (context.transcript?.length ?? 0) > 0 }),
    standsOut: ranked.some((reason) => reason.kind !== "hook"),
  };
}

/** Half the top decile, half the average: a clip needs a peak AND some substance around it. */
function channelScore(values: number[]): number {
  if (values.length === 0) return 0;
  return Math.round(100 * clamp(0.5 * (quantile(values, 0.9) ?? 0) + 0.5 * mean(values)));
}

/**
 * The strongest second in the first 3 s (80%), plus 20% for opening on a change — a cut, sound
 * resuming after silence, or a jump in loudness — when something is actually happening then.
 * Cuts count from half a second before the start (a clip that begins just after a cut opens on
 * it, as `findOpeningChange` sees it) to the opening's end.
 */
function hookScore(range: TimeRange, context: ScoringContext): number {
  const { features } = context;
  const openingEnd = Math.min(range.endSeconds, range.startSeconds + HOOK_SECONDS);
  const cutsInOpening = context.signals.sceneCutsSeconds.filter(
    (time) => time >= range.startSeconds - 0.5 && time < openingEnd,
  ).length;
  const cutsOpen = ramp(cutsInOpening, 0, 2);
  const first = Math.max(0, Math.floor(range.startSeconds));
  let strongest = 0;
  for (let second = first; second < Math.max(first + 1, Math.ceil(openingEnd - 1e-6)); second += 1) {
    const visual = 1 - (1 - (features.motion[second] ?? 0)) * (1 - cutsOpen);
    const audio = features.audio[second] ?? 0;
    const speech = features.speech[second] ?? 0;
    strongest = Math.max(strongest, 1 - (1 - 0.85 * audio) * (1 - 0.85 * visual) * (1 - 0.6 * speech));
  }
  const opensOnChange = findOpeningChange(range, context) !== undefined;
  return Math.round(100 * clamp(0.8 * strongest + 0.2 * (opensOnChange ? 1 : 0) * ramp(strongest, 0.1, 0.4)));
}

/**
 * With a transcript, the share of the clip covered by its segments (10% → 0, 70% → 100);
 * without, the average speech likelihood of its seconds (5% → 0, 50% → 100).
 */
function speechScore(range: TimeRange, context: ScoringContext): number {
  if (context.transcript && context.transcript.length > 0) {
    return Math.round(100 * ramp(transcriptCoverage(range, context.transcript), 0.1, 0.7));
  }
  return Math.round(
    100 * ramp(mean(sliceSeconds(context.features.speech, range.startSeconds, range.endSeconds)), 0.05, 0.5),
  );
}

export function transcriptCoverage(range: TimeRange, transcript: readonly TranscriptSegment[]): number {
  const length = range.endSeconds - range.startSeconds;
  if (length <= 0) return 0;
  // Segments may overlap (some subtitle files do): merge before measuring.
  const clipped = transcript
    .map((segment) => ({
      startSeconds: Math.max(range.startSeconds, segment.startSeconds),
      endSeconds: Math.min(range.endSeconds, segment.endSeconds),
    }))
    .filter((segment) => segment.endSeconds > segment.startSeconds)
    .sort((a, b) => a.startSeconds - b.startSeconds);
  let covered = 0;
  let cursor = range.startSeconds;
  for (const segment of clipped) {
    const start = Math.max(cursor, segment.startSeconds);
    if (segment.endSeconds > start) covered += segment.endSeconds - start;
    cursor = Math.max(cursor, segment.endSeconds);
  }
  return covered / length;
}

/**
 * 60%: how far the clip's chat rate rises above the video's typical rate (same → 0, 4× → 100);
 * 40%: its busiest 5 s in absolute terms (0.1 msg/s → 0, 3 msg/s → 100). Null without chat.
 */
function chatScore(range: TimeRange, context: ScoringContext): number | null {
  const rates = context.chat?.messagesPerSecond;
  if (!rates || rates.length === 0) return null;
  const inClip = sliceSeconds(rates, range.startSeconds, range.endSeconds);
  if (inClip.length === 0) return 0;
  const typical = context.chatTypicalRate ?? 0;
  const relative = ramp(Math.log2((mean(inClip) + 0.02) / (typical + 0.02)), 0, 2);
  const busiest = busiestWindow(inClip, 5);
  return Math.round(100 * clamp(0.6 * relative + 0.4 * ramp(busiest.rate, 0.1, 3)));
}
