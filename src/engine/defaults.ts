import { DEFAULT_SCORING_WEIGHTS, resolveWeights } from "./scoring/weights";
import type { MomentOptions, ScoringWeights, SignalMode } from "./types";

export { DEFAULT_SCORING_WEIGHTS } from "./scoring/weights";

/**
 * The signal pass used unless asked otherwise. `fast` (keyframes only, full audio, packet sizes
 * for motion) was chosen from `npm run bench:pipeline`: see bench/README.md for the figures.
 */
export const DEFAULT_SIGNAL_MODE: SignalMode = "fast";

export const MAX_TOP_N = 20;

/**
 * The shortest clip Truss makes or lets a creator make by hand. A video shorter than the
 * automatic minimum (15 s) but at least this long becomes one clip: all of it, scored and
 * rendered vertical like any other. Below it there is nothing worth posting.
 */
export const SHORTEST_CLIP_SECONDS = 3;

/** The longest clip: every target platform takes vertical videos up to 3 minutes (Shorts' limit). */
export const LONGEST_CLIP_SECONDS = 180;

/**
 * Why a video is too short to clip, or null when it is long enough: one wording for every
 * place that refuses such a video before any work (the CLI; the worker says the same).
 */
export function describeTooShortToClip(durationSeconds: number): string | null {
  if (durationSeconds >= SHORTEST_CLIP_SECONDS) return null;
  return `This video is ${Math.round(durationSeconds * 10) / 10} s long; a clip needs at least ${SHORTEST_CLIP_SECONDS} s.`;
}

export const DEFAULT_MOMENT_OPTIONS: MomentOptions = {
  topN: 5,
  minSeconds: 15,
  maxSeconds: 60,
  weights: DEFAULT_SCORING_WEIGHTS,
};

/**
 * Options from a caller (CLI flags, API input) made safe: missing values take the defaults,
 * topN is kept within 1..20, lengths within SHORTEST_CLIP_SECONDS..LONGEST_CLIP_SECONDS (the
 * limits the web app's clip options have) with min ≤ max.
 */
export function resolveMomentOptions(
  options: Partial<Omit<MomentOptions, "weights">> & { weights?: Partial<ScoringWeights> } = {},
): MomentOptions {
  const topN = Math.round(options.topN ?? DEFAULT_MOMENT_OPTIONS.topN);
  const minSeconds = options.minSeconds ?? DEFAULT_MOMENT_OPTIONS.minSeconds;
  const maxSeconds = options.maxSeconds ?? Math.max(DEFAULT_MOMENT_OPTIONS.maxSeconds, minSeconds);
  if (!Number.isFinite(topN) || topN < 1 || topN > MAX_TOP_N)
    throw new Error(`topN must be between 1 and ${MAX_TOP_N}`);
  const clipLength = `between ${SHORTEST_CLIP_SECONDS} and ${LONGEST_CLIP_SECONDS} seconds`;
  if (!(minSeconds >= SHORTEST_CLIP_SECONDS && minSeconds <= LONGEST_CLIP_SECONDS)) {
    throw new Error(`minSeconds must be ${clipLength}`);
  }
  if (!(maxSeconds >= SHORTEST_CLIP_SECONDS && maxSeconds <= LONGEST_CLIP_SECONDS)) {
    throw new Error(`maxSeconds must be ${clipLength}`);
  }
  if (maxSeconds < minSeconds) throw new Error("maxSeconds must be at least minSeconds");
  return { topN, minSeconds, maxSeconds, weights: resolveWeights(options.weights) };
}
