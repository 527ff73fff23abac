import { describe, expect, it } from "vitest";
import { chooseDecodeSplits, decodeParts, MAX_DECODE_PARTS, MIN_DECODE_PART_SECONDS } from "./decode-parts";

describe("chooseDecodeSplits", () => {
  it("splits at the keyframe nearest each even share of the segment, in segment time", () => {
    // The bench's motion clip: 139–157 s of a source with keyframes where its scenes change.
    const keyframesSeconds = [124, 132.333, 139, 146.967, 155.3, 157];
    expect(
      chooseDecodeSplits({ startSeconds: 139, durationSeconds: 18, keyframesSeconds, parts: 2 }),
    ).toEqual([expect.closeTo(7.967, 6)]);
    const everyTwoSeconds = Array.from({ length: 40 }, (_, index) => index * 2);
    expect(
      chooseDecodeSplits({
        startSeconds: 10,
        durationSeconds: 60,
        keyframesSeconds: everyTwoSeconds,
        parts: 3,
      }),
    ).toEqual([20, 40]);
  });

  it("keeps every part at least the minimum long, and splits nothing it cannot", () => {
    const start = { startSeconds: 0, durationSeconds: 12 };
    // Keyframes only near the ends: a part there would cost an ffmpeg start for little decoding.
    expect(chooseDecodeSplits({ ...start, keyframesSeconds: [0, 2, 10.5], parts: 2 })).toEqual([]);
    expect(chooseDecodeSplits({ ...start, keyframesSeconds: undefined, parts: 2 })).toEqual([]);
    expect(chooseDecodeSplits({ ...start, keyframesSeconds: [0, 6], parts: 1 })).toEqual([]);
    // However many cores, at most MAX_DECODE_PARTS decoders.
    const everySecond = Array.from({ length: 120 }, (_, index) => index);
    expect(
      chooseDecodeSplits({ startSeconds: 0, durationSeconds: 120, keyframesSeconds: everySecond, parts: 64 }),
    ).toHaveLength(MAX_DECODE_PARTS - 1);
    // Three parts wanted, but two keyframes 1 s apart would leave one of 1 s: one split.
    const splits = chooseDecodeSplits({ ...start, keyframesSeconds: [5, 6], parts: 3 });
    expect(splits).toHaveLength(1);
    const edges = [0, ...splits, 12];
    for (let index = 1; index < edges.length; index += 1) {
      expect(edges[index]! - edges[index - 1]!).toBeGreaterThanOrEqual(MIN_DECODE_PART_SECONDS);
    }
  });
});

describe("decodeParts", () => {
  it("gives every sample slot to exactly one part, as many as one run samples", () => {
    const parts = decodeParts({ durationSeconds: 18, framesPerSecond: 4, splitsSeconds: [7.967, 12.5] });
    expect(parts).toEqual([
      { offsetSeconds: 0, durationSeconds: 7.967, firstSlot: 0, slotCount: 32 },
      { offsetSeconds: 7.967, durationSeconds: expect.closeTo(4.533, 6), firstSlot: 32, slotCount: 18 },
      { offsetSeconds: 12.5, durationSeconds: 5.5, firstSlot: 50, slotCount: 22 },
    ]);
    expect(parts.reduce((sum, part) => sum + part.slotCount, 0)).toBe(72);
  });

  it("starts a part on the slot its keyframe falls on, and leaves an unsplit segment whole", () => {
    expect(decodeParts({ durationSeconds: 10, framesPerSecond: 4, splitsSeconds: [5] })[1]).toMatchObject({
      firstSlot: 20,
      slotCount: 20,
    });
    expect(decodeParts({ durationSeconds: 9.9, framesPerSecond: 4, splitsSeconds: [] })).toEqual([
      { offsetSeconds: 0, durationSeconds: 9.9, firstSlot: 0, slotCount: 40 },
    ]);
  });
});
