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

/** Sums kept per cell of the motion grid, in this order (see `measureMotion`'s `cellSums`). */
export const CELL_SUMS = 5;
/** The motion grid's cells: squares of this many pixels of the analysis frame (32×18 of 256×144). */
export const MOTION_CELL_PIXELS = 8;

/** Columns and rows of the motion grid on a frame (a partial last column or row counts). */
export function motionGridOf(width: number, height: number): { columns: number; rows: number } {
  return { columns: Math.ceil(width / MOTION_CELL_PIXELS), rows: Math.ceil(height / MOTION_CELL_PIXELS) };
}

/**
 * `cellSums`, when given (CELL_SUMS × the grid's cells, zeroed), receives each cell's share of
 * the change — changed pixels, their weight and weighted x, x² and y, as summed here — so the
 * motion can be measured again without some cells (overlays: see find-motion-overlays.ts).
 */
export function measureMotion(
  previous: Uint8Array,
  current: Uint8Array,
  width: number,
  height: number,
  cellSums?: Float64Array,
): MotionMeasure {
  let changed = 0;
  let totalDifference = 0;
  let weight = 0;
  let sumX = 0;
  let sumXX = 0;
  let sumY = 0;
  const { columns } = motionGridOf(width, height);
  for (let y = 0; y < height; y += 1) {
    const fy = (y + 0.5) / height;
    const cellRowOffset = ((y / MOTION_CELL_PIXELS) | 0) * columns * CELL_SUMS;
    // A cell's width of the row at a time: its sums go to the cell once, not pixel by pixel.
    for (let runStart = 0, column = 0; runStart < width; runStart += MOTION_CELL_PIXELS, column += 1) {
      const runEnd = Math.min(width, runStart + MOTION_CELL_PIXELS);
      let runChanged = 0;
      let runWeight = 0;
      let runSumX = 0;
      let runSumXX = 0;
      for (let x = runStart, index = y * width + runStart; x < runEnd; x += 1, index += 1) {
        const difference = Math.abs(current[index]! - previous[index]!);
        totalDifference += difference;
        if (difference < CHANGE_THRESHOLD) continue;
        runChanged += 1;
        const fx = (x + 0.5) / width;
        runWeight += difference;
        runSumX += difference * fx;
        runSumXX += difference * fx * fx;
      }
      if (runChanged === 0) continue;
      changed += runChanged;
      weight += runWeight;
      sumX += runSumX;
      sumXX += runSumXX;
      sumY += runWeight * fy;
      if (cellSums) {
        const offset = cellRowOffset + column * CELL_SUMS;
        cellSums[offset]! += runChanged;
        cellSums[offset + 1]! += runWeight;
        cellSums[offset + 2]! += runSumX;
        cellSums[offset + 3]! += runSumXX;
        cellSums[offset + 4]! += runWeight * fy;
      }
    }
  }
  const pixels = width * height;
  return {
    meanDifference: totalDifference / pixels / 255,
    ...motionFromSums({ changed, weight, sumX, sumXX, sumY }, pixels),
  };
}

/** Sums over the changed pixels of a frame (or of some of its cells), as `measureMotion` adds them. */
export type ChangeSums = { changed: number; weight: number; sumX: number; sumXX: number; sumY: number };

/** Energy, centre and spread from a frame's change sums; `pixels` is the whole frame's count. */
export function motionFromSums(
  sums: ChangeSums,
  pixels: number,
): Pick<MotionMeasure, "energy" | "centerX" | "centerY" | "spreadX"> {
  const { changed, weight, sumX, sumXX, sumY } = sums;
  if (weight === 0) return { energy: 0, centerX: null, centerY: null, spreadX: 0 };
  const centerX = sumX / weight;
  return {
    energy: changed / pixels,
    centerX,
    centerY: sumY / weight,
    spreadX: Math.sqrt(Math.max(0, sumXX / weight - centerX * centerX)),
  };
}
