import { mean, median } from "@/engine/curve-math";
import type { SecondFeatures } from "@/engine/moments/second-features";
import type { ChatActivity, ScoringWeights, SignalCurve, TranscriptSegment } from "@/engine/types";

/** Everything about the whole video that scoring one clip needs; built once per analysis. */
export type ScoringContext = {
  signals: SignalCurve;
  features: SecondFeatures;
  /** Per-second interest (0..1), unsmoothed. */
  interest: number[];
  weights: ScoringWeights;
  transcript?: TranscriptSegment[];
  chat?: ChatActivity;
  /** The video's typical chat rate (messages/s): median of its 30 s averages. */
  chatTypicalRate?: number;
};

export function createScoringContext(context: Omit<ScoringContext, "chatTypicalRate">): ScoringContext {
  const rates = context.chat?.messagesPerSecond;
  if (!rates || rates.length === 0) return context;
  const windows: number[] = [];
  for (let start = 0; start < rates.length; start += 30) windows.push(mean(rates.slice(start, start + 30)));
  return { ...context, chatTypicalRate: median(windows) ?? 0 };
}

export function busiestWindow(
  rates: readonly number[],
  windowSeconds: number,
): { offset: number; rate: number } {
  let best = { offset: 0, rate: 0 };
  for (let offset = 0; offset < Math.max(1, rates.length - windowSeconds + 1); offset += 1) {
    const rate = mean(rates.slice(offset, offset + windowSeconds));
    if (rate > best.rate) best = { offset, rate };
  }
  return best;
}
