import { analyzeCurve } from "@/engine/moments/analyze-curve";
import type { ChatActivity, ScoringWeights, SignalCurve, TimeRange, TranscriptSegment } from "@/engine/types";
import { type MomentScore, scoreMoment } from "./score-moment";

export type RangeScoringInputs = {
  signals: SignalCurve;
  weights: ScoringWeights;
  transcript?: TranscriptSegment[];
  chat?: ChatActivity;
};

/**
 * Scores ranges of one video exactly as the local analyzer scores its own clips — a range a
 * person chose (PATCH /api/clips/:id) or a moment another analyzer found — so every score in
 * the product sits on the same scale. The video's features are computed once, O(duration);
 * each range then costs O(its length).
 */
export function createRangeScorer(inputs: RangeScoringInputs): (range: TimeRange) => MomentScore {
  const { scoring } = analyzeCurve(inputs);
  return (range) => scoreMoment(range, scoring);
}

/** One range, scored as `createRangeScorer` scores it. */
export function scoreRange({ range, ...inputs }: RangeScoringInputs & { range: TimeRange }): MomentScore {
  return createRangeScorer(inputs)(range);
}
