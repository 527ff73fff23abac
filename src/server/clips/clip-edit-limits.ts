import { LONGEST_CLIP_SECONDS, SHORTEST_CLIP_SECONDS } from "@/engine/defaults";

/**
 * The lengths a creator may give a clip by hand. Wider than the engine's automatic 15–60 s:
 * a creator trimming to a 6-second hook or keeping a 2-minute story knows what they want,
 * and every target platform takes vertical videos from a few seconds up to 3 minutes.
 */
export const CLIP_EDIT_MIN_SECONDS = SHORTEST_CLIP_SECONDS;
export const CLIP_EDIT_MAX_SECONDS = LONGEST_CLIP_SECONDS;

export function clipEditLimits(): { minSeconds: number; maxSeconds: number } {
  return { minSeconds: CLIP_EDIT_MIN_SECONDS, maxSeconds: CLIP_EDIT_MAX_SECONDS };
}
