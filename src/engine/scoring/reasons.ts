import { formatTimestamp } from "@/engine/format-timestamp";
import type { Reason, Subscores, TimeRange } from "@/engine/types";
import { HOOK_SECONDS, type MomentEvidence, type OpeningChange } from "./evidence";
import type { ScoringContext } from "./scoring-context";

/** At most this many reasons per clip, strongest first. */
const MAX_REASONS = 4;
/** A sub-score needs at least this much before its channel is named as a reason. */
const WORTH_MENTIONING = 35;

/** What a reason is about: the title (title.ts) names the clip after its strongest reason. */
export type ReasonKind = "loud-burst" | "loud-throughout" | "cuts" | "motion" | "speech" | "hook" | "chat";

/**
 * A reason with what it is about, how strongly the clip shows it (which orders the reasons) and
 * the sub-score of its channel (which the title goes by).
 */
export type RankedReason = Reason & { kind: ReasonKind; strength: number; channelScore: number };

export type ReasonInputs = {
  range: TimeRange;
  subscores: Subscores;
  evidence: MomentEvidence;
  opening: OpeningChange | undefined;
  context: ScoringContext;
};

/**
 * Reasons a person can read, each at the moment it talks about, strongest first, e.g.
 * "Loud burst at 02:14 (−8 dBFS, 24 dB above the video's median)". Only what the signals
 * actually show is said; an uneventful clip gets one honest line instead of praise.
 */
export function buildReasons(ranked: readonly RankedReason[], evidence: MomentEvidence): Reason[] {
  if (ranked.length === 0) {
    return [
      {
        atSeconds: evidence.peakAtSeconds,
        text: `Little stands out: steady sound and few changes on screen (liveliest at ${formatTimestamp(evidence.peakAtSeconds)})`,
      },
    ];
  }
  return ranked
    .slice(0, MAX_REASONS)
    .map(({ atSeconds, text }) => ({ atSeconds: Math.round(atSeconds * 10) / 10, text }));
}

/** Every reason the clip earns, strongest first (none for an uneventful clip). */
export function rankReasons({ range, subscores, evidence, opening, context }: ReasonInputs): RankedReason[] {
  const ts = (seconds: number) => formatTimestamp(seconds);
  const reasons: RankedReason[] = [];

  const { loudest } = evidence;
  if (subscores.audioEnergy >= WORTH_MENTIONING) {
    if (loudest.contrast >= 0.25) {
      reasons.push({
        kind: "loud-burst",
        channelScore: subscores.audioEnergy,
        atSeconds: loudest.atSeconds,
        text: `Loud burst at ${ts(loudest.atSeconds)} (${formatDb(loudest.rmsDb)} dBFS, ${Math.round(loudest.aboveMedianDb)} dB above the video's median)`,
        strength: subscores.audioEnergy,
      });
    } else if (loudest.loudness >= 0.7) {
      reasons.push({
        kind: "loud-throughout",
        channelScore: subscores.audioEnergy,
        atSeconds: loudest.atSeconds,
        text: `Loud throughout, peaking at ${ts(loudest.atSeconds)} (${formatDb(loudest.rmsDb)} dBFS)`,
        strength: subscores.audioEnergy * 0.8,
      });
    }
  }

  if (subscores.visualDynamics >= WORTH_MENTIONING) {
    const { cuts, motion } = evidence;
    if (cuts && cuts.count >= 3) {
      reasons.push({
        kind: "cuts",
        channelScore: subscores.visualDynamics,
        atSeconds: cuts.fromSeconds,
        text: `Fast cuts: ${cuts.count} scene changes between ${ts(cuts.fromSeconds)} and ${ts(cuts.toSeconds)}`,
        strength: subscores.visualDynamics,
      });
    }
    if (motion && motion.toSeconds - motion.fromSeconds >= 3) {
      reasons.push({
        kind: "motion",
        channelScore: subscores.visualDynamics,
        atSeconds: motion.fromSeconds,
        text: `Strong motion from ${ts(motion.fromSeconds)} to ${ts(motion.toSeconds)}`,
        strength: subscores.visualDynamics * 0.95,
      });
    } else if (motion && motion.peak >= 0.4) {
      reasons.push({
        kind: "motion",
        channelScore: subscores.visualDynamics,
        atSeconds: motion.peakAtSeconds,
        text: `Movement peaks at ${ts(motion.peakAtSeconds)}`,
        strength: subscores.visualDynamics * 0.7,
      });
    }
  }

  if (subscores.speech >= 50 && evidence.speech) {
    const percent = Math.round(100 * evidence.speech.share);
    const hasTranscript = (context.transcript?.length ?? 0) > 0;
    reasons.push({
      kind: "speech",
      channelScore: subscores.speech,
      atSeconds: evidence.speech.firstAtSeconds,
      text: hasTranscript
        ? `Talk covers ${percent}% of the clip, from ${ts(evidence.speech.firstAtSeconds)}`
        : `Speech-like audio through ${percent}% of the clip, from ${ts(evidence.speech.firstAtSeconds)}`,
      strength: subscores.speech * 0.9,
    });
  }

  if (subscores.hook >= 60) {
    reasons.push({
      kind: "hook",
      channelScore: subscores.hook,
      atSeconds: opening?.atSeconds ?? range.startSeconds,
      text: `Strong opening: ${describeOpening(opening, evidence, range)} in the first ${HOOK_SECONDS} s`,
      strength: subscores.hook,
    });
  }

  if (subscores.chat !== null && subscores.chat >= 50 && evidence.chat) {
    const { chat } = evidence;
    reasons.push({
      kind: "chat",
      channelScore: subscores.chat,
      atSeconds: chat.atSeconds,
      text: `Chat spike at ${ts(chat.atSeconds)}: ${chat.rate.toFixed(1)} messages/s (${chat.timesTypical.toFixed(1)}× the video's typical rate)`,
      strength: subscores.chat,
    });
  }

  return reasons.sort((a, b) => b.strength - a.strength || a.atSeconds - b.atSeconds);
}

function describeOpening(
  opening: OpeningChange | undefined,
  evidence: MomentEvidence,
  range: TimeRange,
): string {
  if (opening?.kind === "cut") return "a scene cut";
  if (opening?.kind === "sound-returns") return "sound kicking in after a pause";
  if (opening?.kind === "loudness-jump") return "a jump in loudness";
  const early = (seconds: number) => seconds < range.startSeconds + HOOK_SECONDS;
  if (early(evidence.loudest.atSeconds) && evidence.loudest.contrast >= 0.25) return "a loud moment";
  if (evidence.motion && early(evidence.motion.fromSeconds)) return "fast motion";
  return "action";
}

/** dB with a proper minus sign, no decimals. */
export function formatDb(value: number): string {
  const rounded = Math.round(value);
  return rounded < 0 ? `−${Math.abs(rounded)}` : String(rounded);
}
