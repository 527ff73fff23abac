import { median } from "@/engine/curve-math";
import type { FrameRegion } from "@/media/vertical-crop-args";
import { CELL_SUMS, MOTION_CELL_PIXELS, type MotionMeasure, motionFromSums } from "./measure-motion";

// Overlays burned into the picture — a clock or timer, a scoreboard, a chat box whose text
// scrolls, a ticker — change in nearly every sample but never move. Frame differencing sees them
// as motion like any other: a 1080p source with a running timecode at its top left drew the
// crop away from the subject (a white box), which ended out of frame. They are found here from
// the samples the subject pass already has, and left out of its motion.

/** One sample's change, cell by cell: the cells with a changed pixel, and their CELL_SUMS sums. */
export type CellMotion = { cells: Uint32Array; sums: Float32Array };

/** The motion grid of an analysis frame (see `motionGridOf`). */
export type MotionGrid = { width: number; height: number; columns: number; rows: number };

export type MotionOverlays = {
  /** The overlays' boxes in fractions of the frame (for logs), largest first. */
  regions: FrameRegion[];
  /** 1 for each grid cell whose change is left out of the motion. */
  masked: Uint8Array;
};

/** Fewer samples (2 s at 4 fps) are too few to say what changes in most of them. */
const MIN_SAMPLES = 8;
/**
 * A sample where this share of the pixels changed is a cut or a pan: every cell changes, which
 * says nothing about which cells keep changing, so it is not counted.
 */
const WHOLE_PICTURE_CHANGE = 0.5;
/** A cell changed in a sample when this many of its 64 pixels did (one alone may be noise). */
const MIN_CHANGED_PIXELS = 2;
/**
 * An overlay's cells change in most samples: a running timecode's digits in all of them. A subject
 * crossing the frame changes a cell for a sample or two as it passes (at most 17% of the samples
 * for the render tests' box crossing the frame in 6 s).
 */
const MOST_SAMPLES = 0.5;
/**
 * Cells beside those that change in at least this share of the samples belong to the same
 * overlay: a clock's seconds digit changes in one 4 fps sample of four, beside its fractions.
 */
const SOMETIMES = 0.2;
/**
 * An overlay is small: its box at most this share of the frame (a chat box of 400×600 in 1080p
 * is 12%). A larger region that keeps changing is the picture itself (a game, a pan, a crowd).
 */
const MAX_OVERLAY_AREA_SHARE = 0.15;
/**
 * An overlay never moves: where its change is centred (the median over each half of the clip, so
 * a subject passing over it for a few samples does not count) travels by at most this share of
 * its box from the first half to the second. A slow subject's does: one crossing twice its own
 * width in a 2 s clip changes a few cells in most samples too, its centre travelling 31% of the
 * box around its path.
 */
const MAX_TRAVEL_SHARE = 0.15;

/** A sample's dense cell sums (CELL_SUMS per cell), packed to the cells that changed. */
export function packCellMotion(cellSums: Float64Array): CellMotion {
  let count = 0;
  for (let offset = 0; offset < cellSums.length; offset += CELL_SUMS) if (cellSums[offset]! > 0) count += 1;
  const cells = new Uint32Array(count);
  const sums = new Float32Array(count * CELL_SUMS);
  for (let offset = 0, next = 0; offset < cellSums.length; offset += CELL_SUMS) {
    if (!(cellSums[offset]! > 0)) continue;
    cells[next] = offset / CELL_SUMS;
    for (let sum = 0; sum < CELL_SUMS; sum += 1) sums[next * CELL_SUMS + sum] = cellSums[offset + sum]!;
    next += 1;
  }
  return { cells, sums };
}

/**
 * The overlays in a clip's samples: small, fixed regions of cells that change in most samples
 * (MOST_SAMPLES; with the cells beside them that change SOMETIMES). Each region's whole box is
 * masked, so a clock's minutes, which change once a minute, are left out with its seconds.
 * Something that stays in one small place and moves all the time is taken for an overlay too
 * (a fan, a screen in the background): with nothing else moving, the whole frame is shown.
 */
export function findMotionOverlays(samples: CellMotion[], grid: MotionGrid): MotionOverlays {
  const cellCount = grid.columns * grid.rows;
  const masked = new Uint8Array(cellCount);
  const changedSamples = new Uint32Array(cellCount);
  const counted = samples.filter((sample) => {
    let changedPixels = 0;
    for (let next = 0; next < sample.cells.length; next += 1) changedPixels += sample.sums[next * CELL_SUMS]!;
    return changedPixels < WHOLE_PICTURE_CHANGE * grid.width * grid.height;
  });
  if (counted.length < MIN_SAMPLES) return { regions: [], masked };
  for (const sample of counted) {
    sample.cells.forEach((cell, next) => {
      if (sample.sums[next * CELL_SUMS]! >= MIN_CHANGED_PIXELS) changedSamples[cell]! += 1;
    });
  }
  const share = (cell: number) => changedSamples[cell]! / counted.length;

  const regions: { region: FrameRegion; cells: number }[] = [];
  const seen = new Uint8Array(cellCount);
  for (let start = 0; start < cellCount; start += 1) {
    if (seen[start] || share(start) < MOST_SAMPLES) continue;
    const box = growRegion(start, seen, grid, (cell) => share(cell) >= SOMETIMES);
    const boxColumns = box.right - box.left + 1;
    const boxRows = box.bottom - box.top + 1;
    if (boxColumns * boxRows > MAX_OVERLAY_AREA_SHARE * cellCount) continue;
    const travel = centreTravel(counted, grid, box);
    if (travel.x > MAX_TRAVEL_SHARE * boxColumns || travel.y > MAX_TRAVEL_SHARE * boxRows) continue;
    for (let row = box.top; row <= box.bottom; row += 1) {
      masked.fill(1, row * grid.columns + box.left, row * grid.columns + box.right + 1);
    }
    const x = (box.left * MOTION_CELL_PIXELS) / grid.width;
    const y = (box.top * MOTION_CELL_PIXELS) / grid.height;
    regions.push({
      region: {
        x,
        y,
        width: Math.min(1, ((box.right + 1) * MOTION_CELL_PIXELS) / grid.width) - x,
        height: Math.min(1, ((box.bottom + 1) * MOTION_CELL_PIXELS) / grid.height) - y,
      },
      cells: boxColumns * boxRows,
    });
  }
  return {
    regions: regions.sort((a, b) => b.cells - a.cells).map(({ region }) => region),
    masked,
  };
}

/**
 * A sample's motion measured again without the masked cells (energy, centre and spread as
 * `measureMotion` has them; the mean difference, which cuts are told by, stays the whole frame's).
 */
export function motionOutside<Measure extends MotionMeasure>(
  measure: Measure,
  sample: CellMotion,
  masked: Uint8Array,
  grid: MotionGrid,
): Measure {
  if (!sample.cells.some((cell) => masked[cell])) return measure;
  const sums = { changed: 0, weight: 0, sumX: 0, sumXX: 0, sumY: 0 };
  sample.cells.forEach((cell, next) => {
    if (masked[cell]) return;
    const offset = next * CELL_SUMS;
    sums.changed += sample.sums[offset]!;
    sums.weight += sample.sums[offset + 1]!;
    sums.sumX += sample.sums[offset + 2]!;
    sums.sumXX += sample.sums[offset + 3]!;
    sums.sumY += sample.sums[offset + 4]!;
  });
  return { ...measure, ...motionFromSums(sums, grid.width * grid.height) };
}

type CellBox = { left: number; right: number; top: number; bottom: number };

/**
 * How far the centre of the change inside a box travels from the first half of the samples to the
 * second, in cells across and down: each half's median of the samples' centres (those where
 * something in the box changed).
 */
function centreTravel(samples: CellMotion[], grid: MotionGrid, box: CellBox): { x: number; y: number } {
  const centres = samples.flatMap((sample) => {
    let weight = 0;
    let sumX = 0;
    let sumY = 0;
    sample.cells.forEach((cell, next) => {
      const column = cell % grid.columns;
      const row = (cell - column) / grid.columns;
      if (column < box.left || column > box.right || row < box.top || row > box.bottom) return;
      weight += sample.sums[next * CELL_SUMS + 1]!;
      sumX += sample.sums[next * CELL_SUMS + 2]!;
      sumY += sample.sums[next * CELL_SUMS + 4]!;
    });
    return weight > 0 ? [{ x: sumX / weight, y: sumY / weight }] : [];
  });
  const half = Math.floor(centres.length / 2);
  const [first, second] = [centres.slice(0, half), centres.slice(centres.length - half)];
  const travel = (along: (centre: { x: number; y: number }) => number) =>
    Math.abs((median(second.map(along)) ?? 0) - (median(first.map(along)) ?? 0));
  // Centres are fractions of the frame; cells are MOTION_CELL_PIXELS of its pixels.
  return {
    x: (travel((centre) => centre.x) * grid.width) / MOTION_CELL_PIXELS,
    y: (travel((centre) => centre.y) * grid.height) / MOTION_CELL_PIXELS,
  };
}

/**
 * The cells joined to `start` (side by side or corner to corner) that `belongs` accepts, marked
 * in `seen`; their bounding box in cells.
 */
function growRegion(
  start: number,
  seen: Uint8Array,
  grid: MotionGrid,
  belongs: (cell: number) => boolean,
): CellBox {
  const { columns, rows } = grid;
  const stack = [start];
  seen[start] = 1;
  let [left, right, top, bottom] = [columns, -1, rows, -1];
  while (stack.length > 0) {
    const cell = stack.pop()!;
    const column = cell % columns;
    const row = (cell - column) / columns;
    left = Math.min(left, column);
    right = Math.max(right, column);
    top = Math.min(top, row);
    bottom = Math.max(bottom, row);
    for (let dy = -1; dy <= 1; dy += 1) {
      for (let dx = -1; dx <= 1; dx += 1) {
        const [nextColumn, nextRow] = [column + dx, row + dy];
        if (nextColumn < 0 || nextColumn >= columns || nextRow < 0 || nextRow >= rows) continue;
        const next = nextRow * columns + nextColumn;
        if (seen[next] || !belongs(next)) continue;
        seen[next] = 1;
        stack.push(next);
      }
    }
  }
  return { left, right, top, bottom };
}
