/**
 * A frame-sampling pass must decode every reference frame of its segment, one after another: on
 * one thread that is the pass's whole cost (an 18 s 1080p segment, 443 I and P frames: ~1.1 s),
 * and ffmpeg's frame threads gain nothing on a chain of P-frames. A keyframe, though, decodes
 * without anything before it, so the segment splits there into parts that separate ffmpeg runs
 * decode side by side, each on its own core (measured on two cores: 0.76 s for the two halves
 * of that segment against 1.13–1.2 s for the whole), and their frames are joined in order.
 */

/** Shorter parts cost an ffmpeg start (~0.1–0.2 s of CPU here) for too little decoding. */
export const MIN_DECODE_PART_SECONDS = 4;
/**
 * Each part is a decoder of its own (~80–100 MB at 1080p) holding up to 32 MB of frames: on a
 * many-core host, more parts would cost more memory than a render's encoder for little gain.
 */
export const MAX_DECODE_PARTS = 4;

/**
 * Segment times (seconds from its start) of the keyframes at which a pass splits its decode
 * into at most `parts` parts (and MAX_DECODE_PARTS), each at least MIN_DECODE_PART_SECONDS long: for each even share
 * of the segment, the keyframe nearest its end. None where no keyframe is far enough inside.
 */
export function chooseDecodeSplits({
  startSeconds,
  durationSeconds,
  keyframesSeconds,
  parts,
}: {
  startSeconds: number;
  durationSeconds: number;
  /** The source's keyframe times, seconds from its start (a signal curve's `keyframesSeconds`). */
  keyframesSeconds: readonly number[] | undefined;
  parts: number;
}): number[] {
  parts = Math.min(parts, MAX_DECODE_PARTS);
  if (!keyframesSeconds || parts < 2) return [];
  const candidates = keyframesSeconds
    .map((time) => time - startSeconds)
    .filter((time) => time >= MIN_DECODE_PART_SECONDS && durationSeconds - time >= MIN_DECODE_PART_SECONDS);
  const splits: number[] = [];
  for (let share = 1; share < parts; share += 1) {
    const target = (share * durationSeconds) / parts;
    const nearest = candidates
      .filter((time) => splits.every((split) => Math.abs(split - time) >= MIN_DECODE_PART_SECONDS))
      .sort((a, b) => Math.abs(a - target) - Math.abs(b - target))[0];
    if (nearest !== undefined) splits.push(nearest);
  }
  return splits.sort((a, b) => a - b);
}

/** One part of a split decode, and the sample slots (index = time × rate) its frames fill. */
export type DecodePart = {
  /** Where the part starts (a keyframe, or 0), seconds from the segment's start. */
  offsetSeconds: number;
  durationSeconds: number;
  /** The first sample slot that is this part's: the first at or after its start. */
  firstSlot: number;
  /** How many slots are this part's: up to the next part's first. */
  slotCount: number;
};

/**
 * The parts a segment sampled at `framesPerSecond` decodes in, split at `splitsSeconds`. Every
 * sample slot of the segment (ceil(duration × rate) of them, as one ffmpeg run gives) belongs to
 * exactly one part, so the parts' frames, joined in order, are those of one run.
 */
export function decodeParts({
  durationSeconds,
  framesPerSecond,
  splitsSeconds,
}: {
  durationSeconds: number;
  framesPerSecond: number;
  splitsSeconds: readonly number[];
}): DecodePart[] {
  // A hair under each boundary: a split exactly on a slot's time starts with that slot.
  const slotAtOrAfter = (seconds: number) => Math.max(0, Math.ceil(seconds * framesPerSecond - 1e-6));
  const starts = [0, ...splitsSeconds.filter((split) => split > 0 && split < durationSeconds)];
  return starts.map((offsetSeconds, index) => {
    const endSeconds = starts[index + 1] ?? durationSeconds;
    const firstSlot = slotAtOrAfter(offsetSeconds);
    return {
      offsetSeconds,
      durationSeconds: endSeconds - offsetSeconds,
      firstSlot,
      slotCount: slotAtOrAfter(endSeconds) - firstSlot,
    };
  });
}
