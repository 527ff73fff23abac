import { curveToScore } from "@/engine/analyzers/local-analyzer";
import { clamp } from "@/engine/curve-math";
import { createRangeScorer } from "@/engine/scoring/score-range";
import { lengthSeconds, overlapSeconds, rangesOverlap, roundSeconds } from "@/engine/time-ranges";
import type { AnalysisInput, AnalysisResult, Reason, ScoredMoment, TimeRange } from "@/engine/types";
import type { ClampedGeminiAnalysis } from "./clamp-gemini-analysis";

/**
 * Fuses Gemini's clamped answer with the local result (which always runs).
 *
 * Fused score = round(0.6 × G + 0.4 × L), 0..100, where
 * - G is Gemini's judgement of the clip (it watched and listened: jokes, stories, payoffs),
 * - L is the local score (loudness, motion, cuts, speech, chat: measured, and on absolute
 *   scales, which keeps the fused score comparable across videos and reins in a model that
 *   rates generously).
 *
 * Candidates:
 * - each Gemini clip. When a local clip covers at least half of the shorter of the two, the clip
 *   is "matched": L, the sub-scores and the local reasons come from that local clip. Otherwise
 *   (local did not pick it) the local analyzer scores Gemini's range as it scores its own
 *   clips (`createRangeScorer`), so one range gets one local score whoever found it. Gemini's
 *   boundaries are kept: it chose them for the content.
 * - each local clip no Gemini clip matched. Gemini watched the whole video and did not pick
 *   it, so its G is taken as min(L, lowest score Gemini gave any clip): such a clip can still
 *   make the list, but never above what it measured.
 * Then: best fused score first (earlier start on ties), overlapping candidates dropped, top N
 * kept, ordinals re-assigned by rank. Reasons are Gemini's and the local ones, by time (a local
 * "little stands out" only where Gemini gave no reason of its own).
 *
 * Chapters: Gemini's when it gave at least two usable ones (or local has no more than one).
 * Transcript: the creator's when supplied, else Gemini's, else the local one.
 * Interest curve: local.
 */
export const FUSION_WEIGHTS = { gemini: 0.6, local: 0.4 } as const;

const MATCH_SHARE_OF_SHORTER = 0.5;
const MAX_REASONS = 8;

type Candidate = Omit<ScoredMoment, "ordinal">;

export function fuseWithLocal(options: {
  local: AnalysisResult;
  gemini: ClampedGeminiAnalysis;
  input: Pick<AnalysisInput, "probe" | "signals" | "chat" | "transcript" | "options">;
}): AnalysisResult {
  const { local, gemini, input } = options;
  const { topN, weights } = input.options;
  const scoreLocally = createRangeScorer({
    signals: curveToScore(input.probe, input.signals),
    weights,
    transcript: input.transcript,
    chat: input.chat,
  });

  const matchedLocal = new Set<ScoredMoment>();
  const candidates: Candidate[] = gemini.moments.map((moment) => {
    const match = bestLocalMatch(moment, local.moments);
    if (match) matchedLocal.add(match);
    const measured = match ? null : scoreLocally(moment);
    const localSide = match ?? measured!;
    // "Little stands out" beside what Gemini saw and heard would read as a contradiction: the
    // low local score and its bars already show that the signals are quiet there.
    const localReasons =
      measured && !measured.standsOut && moment.reasons.length > 0 ? [] : localSide.reasons;
    return {
      startSeconds: moment.startSeconds,
      endSeconds: moment.endSeconds,
      score: fusedScore(moment.score, localSide.score),
      subscores: localSide.subscores,
      reasons: mergeReasons(moment, moment.reasons, localReasons),
      title: moment.title,
      hookLine: moment.hookLine,
      platformCopy: moment.platformCopy,
    };
  });

  const lowestGeminiScore = Math.min(...gemini.moments.map((moment) => moment.score));
  for (const moment of local.moments) {
    if (matchedLocal.has(moment)) continue;
    const implicitGeminiScore = Math.min(moment.score, lowestGeminiScore);
    candidates.push({
      startSeconds: moment.startSeconds,
      endSeconds: moment.endSeconds,
      score: fusedScore(implicitGeminiScore, moment.score),
      subscores: moment.subscores,
      reasons: mergeReasons(moment, [], moment.reasons),
      title: moment.title,
      hookLine: moment.hookLine,
      platformCopy: moment.platformCopy,
    });
  }

  const ranked = candidates
    .map((candidate, index) => ({ candidate, index }))
    .sort(
      (a, b) =>
        b.candidate.score - a.candidate.score ||
        a.candidate.startSeconds - b.candidate.startSeconds ||
        a.index - b.index,
    )
    .map(({ candidate }) => candidate);
  const kept: Candidate[] = [];
  for (const candidate of ranked) {
    if (kept.length >= topN) break;
    if (!kept.some((other) => rangesOverlap(other, candidate))) kept.push(candidate);
  }

  return {
    analyzer: "gemini",
    fallbackReason: null,
    moments: kept.map((candidate, ordinal) => ({ ordinal, ...candidate })),
    chapters:
      gemini.chapters.length >= 2 || (gemini.chapters.length === 1 && local.chapters.length <= 1)
        ? gemini.chapters
        : local.chapters,
    transcript: input.transcript?.length
      ? input.transcript
      : gemini.transcript.length > 0
        ? gemini.transcript
        : local.transcript,
    interestCurve: local.interestCurve,
  };
}

export function fusedScore(geminiScore: number, localScore: number): number {
  return Math.round(clamp(FUSION_WEIGHTS.gemini * geminiScore + FUSION_WEIGHTS.local * localScore, 0, 100));
}

/** The local clip sharing the most time with `range`, if it covers half of the shorter one. */
function bestLocalMatch(range: TimeRange, localMoments: ScoredMoment[]): ScoredMoment | undefined {
  let best: ScoredMoment | undefined;
  let bestOverlap = 0;
  for (const moment of localMoments) {
    const shared = overlapSeconds(range, moment);
    const needed = MATCH_SHARE_OF_SHORTER * Math.min(lengthSeconds(range), lengthSeconds(moment));
    if (shared >= needed && shared > bestOverlap) {
      best = moment;
      bestOverlap = shared;
    }
  }
  return best;
}

/** Gemini's reasons first on ties, local ones inside the clip, one per (second, text). */
function mergeReasons(range: TimeRange, geminiReasons: Reason[], localReasons: Reason[]): Reason[] {
  const seen = new Set<string>();
  const merged: Reason[] = [];
  for (const reason of [...geminiReasons, ...localReasons]) {
    if (reason.atSeconds < range.startSeconds - 1 || reason.atSeconds > range.endSeconds + 1) continue;
    const atSeconds = roundSeconds(clamp(reason.atSeconds, range.startSeconds, range.endSeconds));
    const key = `${Math.round(atSeconds)}|${reason.text.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push({ atSeconds, text: reason.text });
  }
  return merged.sort((a, b) => a.atSeconds - b.atSeconds).slice(0, MAX_REASONS);
}
