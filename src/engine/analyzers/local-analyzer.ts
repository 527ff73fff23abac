import { buildChapters } from "@/engine/chapters/build-chapters";
import { resolveMomentOptions } from "@/engine/defaults";
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
  let picked = pickMoments(
    findCandidateMoments({
      interest,
      boundaries,
      ...limits,
      maxCandidates: Math.max(60, options.topN * 4),
    }).map(score),
    options.topN,
  );
  for (let round = 0; round < GAP_FILL_ROUNDS && picked.length < options.topN; round += 1) {
    const extra = findCandidatesInGaps({ interest, boundaries, covered: picked, ...limits }).map(score);
    if (extra.length === 0) break;
    picked = pickMoments([...picked, ...extra], options.topN);
  }

  // A clip in which nothing stands out is kept only as the video's one clip: from a video with
  // one moment, a creator wants that moment, not quiet stretches rendered and ranked beside it.
  picked = picked.filter((moment, rank) => rank === 0 || moment.standsOut);

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
    chapters: buildChapters({ signals: curve, features, interest }),
    transcript: transcript ?? [],
    interestCurve: toTimelineCurve(interest),
  };
}
