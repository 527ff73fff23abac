import { analyzeCurve } from "@/engine/moments/analyze-curve";
import type { ChatActivity, ScoringWeights, SignalCurve, TimeRange, TranscriptSegment } from "@/engine/types";
import { type MomentScore, scoreMoment } from "./score-moment";

/**
 * Scores any range of a video exactly as the local analyzer scores its own clips — for a range
 * a person chose (PATCH /api/clips/:id) or a moment another analyzer found — so every score in
 * the product sits on the same scale. Recomputes the video's features: O(duration), milliseconds.
 */
export function scoreRange({
  signals,
  range,
  weights,
  transcript,
  chat,
}: {
  signals: SignalCurve;
  range: TimeRange;
  weights: ScoringWeights;
  transcript?: TranscriptSegment[];
  chat?: ChatActivity;
}): MomentScore {
  const { scoring } = analyzeCurve({ signals, weights, transcript, chat });
  return scoreMoment(range, scoring);
}
