import { buildChapters } from "@/engine/chapters/build-chapters";
import { MAX_TOP_N, resolveMomentOptions } from "@/engine/defaults";
import { analyzeCurve } from "@/engine/moments/analyze-curve";
import { collectBoundaries } from "@/engine/moments/boundaries";
import {
  type CandidateMoment,
  findCandidateMoments,
  findCandidatesInGaps,
} from "@/engine/moments/find-candidate-moments";
import { toTimelineCurve } from "@/engine/moments/interest-curve";
import { pickMoments } from "@/engine/moments/pick-moments";
import { type MomentScore, scoreMoment } from "@/engine/scoring/score-moment";
import {
  type AnalysisInput,
  type AnalysisResult,
  type Analyzer,
  clipableSeconds,
  type MediaProbe,
  type ScoredMoment,
  type SignalCurve,
} from "@/engine/types";

/** Rounds of "fill the uncovered gaps" before giving up on reaching topN. */
const GAP_FILL_ROUNDS = 3;

/**
 * The analyzer that needs nothing but the signals: interest curve → candidate clips at its
 * peaks (edges on pauses and cuts) → scored → the best non-overlapping `topN` (fewer when fewer
 * moments stand out); chapters for the whole video. Deterministic: the same signals always give
 * the same clips in the same order.
 */
export function createLocalAnalyzer(): Analyzer {
  return {
    name: "local",
    async analyze(input: AnalysisInput): Promise<AnalysisResult> {
      input.signal?.throwIfAborted();
      return analyzeLocally(input);
    },
  };
}

/**
 * The signal curve as the analyzer scores it: signals may have found the file shorter than its
 * header claimed (a truncated upload). Re-scoring a clip later starts from the same curve.
 */
export function curveToScore(probe: Pick<MediaProbe, "durationSeconds">, signals: SignalCurve): SignalCurve {
  return { ...signals, durationSeconds: Math.min(probe.durationSeconds, signals.durationSeconds) };
}

export function analyzeLocally(input: AnalysisInput): AnalysisResult {
  const { signals, chat, transcript } = input;
  const options = resolveMomentOptions(input.options);
  const curve = curveToScore(input.probe, signals);
  const { durationSeconds } = curve;
  const { features, interest, scoring } = analyzeCurve({
    signals: curve,
    weights: options.weights,
    transcript,
    chat,
  });
  const boundaries = collectBoundaries(curve);
  // Clips only where there is a picture; the timeline and chapters cover the whole file.
  const limits = {
    durationSeconds: Math.min(durationSeconds, clipableSeconds(input.probe)),
    minSeconds: options.minSeconds,
    maxSeconds: options.maxSeconds,
  };

  type Scored = CandidateMoment & MomentScore;
  const score = (candidate: CandidateMoment): Scored => ({
    ...candidate,
    ...scoreMoment(candidate, scoring),
  });
  // Only moments in which something stands out compete for the places: from a video with one
  // moment, a creator wants that moment, not quiet stretches rendered and ranked beside it; a
  // video in which nothing stands out gets its best moment alone. They are picked as if the most
  // clips were asked for, then the best taken, so asking for fewer gives the first of the same
  // clips, never others. (On a 90 s fractal zoom, a quiet stretch that took a place before being
  // left out made 3 asked for give 2 clips where 5 gave 3; and the gaps between picks, searched
  // only while places remained, gave 3 asked for a third clip that 4 asked for ranked fourth.)
  const places = MAX_TOP_N; // resolveMomentOptions refuses a topN above it
  const standingOut = (moments: Scored[]) => moments.filter((moment) => moment.standsOut);
  const candidates = findCandidateMoments({
    interest,
    boundaries,
    ...limits,
    maxCandidates: Math.max(60, places * 4),
  }).map(score);
  let picked = pickMoments(standingOut(candidates), places);
  for (let round = 0; round < GAP_FILL_ROUNDS && picked.length < places; round += 1) {
    const extra = standingOut(
      findCandidatesInGaps({ interest, boundaries, covered: picked, ...limits }).map(score),
    );
    if (extra.length === 0) break;
    picked = pickMoments([...picked, ...extra], places);
  }
  picked = picked.slice(0, options.topN);
  if (picked.length === 0) {
    const anywhere = findCandidatesInGaps({ interest, boundaries, covered: [], ...limits }).map(score);
    picked = pickMoments([...candidates, ...anywhere], 1);
  }

  const moments: ScoredMoment[] = picked.map((moment, ordinal) => ({
    ordinal,
    startSeconds: moment.startSeconds,
    endSeconds: moment.endSeconds,
    score: moment.score,
    subscores: moment.subscores,
    reasons: moment.reasons,
    title: moment.title,
    hookLine: null,
    platformCopy: null,
  }));

  return {
    analyzer: "local",
    fallbackReason: null,
    moments,
    chapters: buildChapters({ signals: curve, features, interest, transcript }),
    transcript: transcript ?? [],
    interestCurve: toTimelineCurve(interest),
  };
}
