/**
 * Motion saliency by frame differencing on small analysis frames: where did the picture change
 * between two samples, and how concentrated is that change? A subject moving against a still
 * background gives a strong, concentrated change; a camera pan or a cut changes everything.
 */
export type MotionMeasure = {
  /** Share of pixels that changed noticeably, 0..1. */
  energy: number;
  /** Mean absolute luma change, 0..1 (large at scene cuts). */
  meanDifference: number;
  /** Change-weighted centroid, fractions of the frame; null when nothing changed. */
  centerX: number | null;
  centerY: number | null;
  /** Change-weighted standard deviation of x, in frame widths (0.29 for change spread evenly). */
  spreadX: number;
};

/** Luma steps below this are compression noise and grain, not motion (out of 255). */
const CHANGE_THRESHOLD = 24;

/** BT.601 luma of packed RGB24, one byte per pixel. */
export function rgbToLuma(rgb: Uint8Array, width: number, height: number): Uint8Array {
  const luma = new Uint8Array(width * height);
  for (let pixel = 0, offset = 0; pixel < luma.length; pixel += 1, offset += 3) {
    luma[pixel] = (77 * rgb[offset]! + 150 * rgb[offset + 1]! + 29 * rgb[offset + 2]!) >> 8;
  }
  return luma;
}

export function measureMotion(
  previous: Uint8Array,
  current: Uint8Array,
  width: number,
  height: number,
): MotionMeasure {
  let changed = 0;
  let totalDifference = 0;
  let weight = 0;
  let sumX = 0;
  let sumXX = 0;
  let sumY = 0;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const index = y * width + x;
      const difference = Math.abs(current[index]! - previous[index]!);
      totalDifference += difference;
      if (difference < CHANGE_THRESHOLD) continue;
      changed += 1;
      const fx = (x + 0.5) / width;
      weight += difference;
      sumX += difference * fx;
      sumXX += difference * fx * fx;
      sumY += difference * ((y + 0.5) / height);
    }
  }
  const pixels = width * height;
  if (weight === 0) {
    return {
      energy: 0,
      meanDifference: totalDifference / pixels / 255,
      centerX: null,
      centerY: null,
      spreadX: 0,
    };
  }
  const centerX = sumX / weight;
  return {
    energy: changed / pixels,
    meanDifference: totalDifference / pixels / 255,
    centerX,
    centerY: sumY / weight,
    spreadX: Math.sqrt(Math.max(0, sumXX / weight - centerX * centerX)),
  };
}
