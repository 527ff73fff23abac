import { movingAverage, roundTo } from "@/engine/curve-math";
import type { SecondFeatures } from "./second-features";

/**
 * How much is going on in each second, 0..1, on an absolute scale: any one strong channel
 * (sound, picture, speech) lifts it, several together lift it further, and a second with none
 * stays near 0 — whatever the rest of the video is like.
 *
 *   interest = 1 − (1 − 0.85·audio)(1 − 0.85·visual)(1 − 0.6·speech)
 *
 * Speech weighs less than a burst of sound or picture: talking is the normal state of most
 * videos, not an event in itself.
 */
export function computeInterest(features: SecondFeatures): number[] {
  return features.audio.map((audio, index) => {
    const visual = features.visual[index] ?? 0;
    const speech = features.speech[index] ?? 0;
    return 1 - (1 - 0.85 * audio) * (1 - 0.85 * visual) * (1 - 0.6 * speech);
  });
}

/** The curve kept for the timeline plot: lightly smoothed (3 s) so single-second spikes read as moments. */
export function toTimelineCurve(interest: readonly number[]): number[] {
  return movingAverage(interest, 3).map((value) => roundTo(value, 3));
}
