import { createScoringContext, type ScoringContext } from "@/engine/scoring/scoring-context";
import type { ChatActivity, ScoringWeights, SignalCurve, TranscriptSegment } from "@/engine/types";
import { computeInterest } from "./interest-curve";
import { computeSecondFeatures, type SecondFeatures } from "./second-features";

/** Features, interest and the scoring context of a whole video: computed once, used by every stage. */
export type CurveAnalysis = { features: SecondFeatures; interest: number[]; scoring: ScoringContext };

export function analyzeCurve({
  signals,
  weights,
  transcript,
  chat,
}: {
  signals: SignalCurve;
  weights: ScoringWeights;
  transcript?: TranscriptSegment[];
  chat?: ChatActivity;
}): CurveAnalysis {
  const features = computeSecondFeatures(signals);
  const interest = computeInterest(features);
  const scoring = createScoringContext({ signals, features, interest, weights, transcript, chat });
  return { features, interest, scoring };
}
