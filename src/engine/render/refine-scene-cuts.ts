import type { PictureChange } from "./choose-subject-plan";

/** How far from a given cut the real one may be (fast signal extraction reports cuts ~1 s late). */
const SEARCH_SECONDS = 1.2;
/** A picture change this large (mean luma change, 0..1) between samples is a cut, not motion. */
const MIN_CUT_DIFFERENCE = 0.08;

/**
 * Moves each scene cut to the largest picture change among the clip's own samples near it, so
 * the crop jumps on the cut frame rather than up to a second after. A cut with no clear change
 * nearby (a dissolve, or a false cut) keeps its time. Cuts are seconds from the clip's start.
 */
export function refineSceneCuts({
  cutsSeconds,
  changes,
}: {
  cutsSeconds: number[];
  /** Sampled frames' changes (motion samples), or keyframes' changes from the keyframe before. */
  changes: PictureChange[];
}): number[] {
  const differences = changes.map((sample) => sample.meanDifference).sort((a, b) => a - b);
  const typical = differences[Math.floor(differences.length / 2)] ?? 0;
  const threshold = Math.max(MIN_CUT_DIFFERENCE, 3 * typical);
  const refined = cutsSeconds.map((cut) => {
    let best: PictureChange | undefined;
    for (const sample of changes) {
      if (Math.abs(sample.timeSeconds - cut) > SEARCH_SECONDS) continue;
      if (!best || sample.meanDifference > best.meanDifference) best = sample;
    }
    return best && best.meanDifference >= threshold ? best.timeSeconds : cut;
  });
  return [...new Set(refined)].sort((a, b) => a - b);
}
