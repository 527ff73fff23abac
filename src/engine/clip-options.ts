import { z } from "zod";
import { DEFAULT_MOMENT_OPTIONS, LONGEST_CLIP_SECONDS, MAX_TOP_N, SHORTEST_CLIP_SECONDS } from "./defaults";
import type { MomentOptions, ScoringWeights } from "./types";

const clipCount = z.number().int().min(1).max(MAX_TOP_N);
const clipSeconds = z.number().min(SHORTEST_CLIP_SECONDS).max(LONGEST_CLIP_SECONDS);

/**
 * What a creator asks of a video's automatic clips, stored on the video when it is created:
 * at most `count` clips (fewer when fewer moments stand out), each `minSeconds`–`maxSeconds`.
 */
export const ClipOptions = z
  .object({ count: clipCount, minSeconds: clipSeconds, maxSeconds: clipSeconds })
  .refine((options) => options.minSeconds <= options.maxSeconds, {
    message: "minSeconds must not be above maxSeconds",
    path: ["maxSeconds"],
  });
export type ClipOptions = z.infer<typeof ClipOptions>;

export const DEFAULT_CLIP_OPTIONS: ClipOptions = {
  count: DEFAULT_MOMENT_OPTIONS.topN,
  minSeconds: DEFAULT_MOMENT_OPTIONS.minSeconds,
  maxSeconds: DEFAULT_MOMENT_OPTIONS.maxSeconds,
};

const GivenClipOptions = z
  .object({
    count: clipCount.optional(),
    minSeconds: clipSeconds.optional(),
    maxSeconds: clipSeconds.optional(),
  })
  .strict();

/** As a request gives them: each may be left out for its default. */
export const ClipOptionsInput = GivenClipOptions.transform((given) => ({
  ...DEFAULT_CLIP_OPTIONS,
  ...given,
})).pipe(ClipOptions);

/** A change to a video's options: what is left out keeps its current value. */
export const ClipOptionsChange = GivenClipOptions.refine((given) => Object.keys(given).length > 0, {
  message: "Give count, minSeconds or maxSeconds to change",
});
export type ClipOptionsChange = z.infer<typeof ClipOptionsChange>;

/** The options after a change; a ZodError (a 422) when the result is not valid, e.g. min > max. */
export function changeClipOptions(current: ClipOptions, change: ClipOptionsChange): ClipOptions {
  return ClipOptions.parse({ ...current, ...change });
}

export function momentOptionsFor(clipOptions: ClipOptions, weights: ScoringWeights): MomentOptions {
  return {
    topN: clipOptions.count,
    minSeconds: clipOptions.minSeconds,
    maxSeconds: clipOptions.maxSeconds,
    weights,
  };
}

export function sameClipOptions(a: ClipOptions, b: ClipOptions): boolean {
  return a.count === b.count && a.minSeconds === b.minSeconds && a.maxSeconds === b.maxSeconds;
}
