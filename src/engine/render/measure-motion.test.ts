import { describe, expect, it } from "vitest";
import { CELL_SUMS, MOTION_CELL_PIXELS, measureMotion, motionGridOf, rgbToLuma } from "./measure-motion";

const WIDTH = 64;
const HEIGHT = 36;

function frameWithBox(boxX: number | null, background = 16): Uint8Array {
  const luma = new Uint8Array(WIDTH * HEIGHT).fill(background);
  if (boxX === null) return luma;
  for (let y = 10; y < 20; y += 1) for (let x = boxX; x < boxX + 6; x += 1) luma[y * WIDTH + x] = 240;
  return luma;
}

describe("measureMotion", () => {
  it("finds a moving box: centroid between its two positions, concentrated spread", () => {
    const motion = measureMotion(frameWithBox(40), frameWithBox(46), WIDTH, HEIGHT);
    expect(motion.centerX).toBeCloseTo(46 / WIDTH, 1);
    expect(motion.centerY).toBeCloseTo(15 / HEIGHT, 1);
    expect(motion.energy).toBeCloseTo((2 * 6 * 10) / (WIDTH * HEIGHT), 3);
    expect(motion.spreadX).toBeLessThan(0.08);
  });

  it("reports nothing for a still frame and ignores low-level noise", () => {
    const still = measureMotion(frameWithBox(10), frameWithBox(10), WIDTH, HEIGHT);
    expect(still).toMatchObject({ energy: 0, centerX: null, spreadX: 0 });
    const noisy = frameWithBox(10).map((value, index) => value + (index % 7));
    expect(measureMotion(frameWithBox(10), noisy, WIDTH, HEIGHT).energy).toBe(0);
  });

  it("sees a whole-frame change (a cut) as widely spread with a large mean difference", () => {
    const cut = measureMotion(frameWithBox(null, 16), frameWithBox(null, 200), WIDTH, HEIGHT);
    expect(cut.energy).toBe(1);
    expect(cut.spreadX).toBeGreaterThan(0.25);
    expect(cut.meanDifference).toBeGreaterThan(0.5);
  });
});

describe("measureMotion's cell sums", () => {
  it("splits the change between the grid's cells, which add up to the whole frame's measure", () => {
    // 64×36: 8 columns by 5 rows of 8-px cells, the last row 4 px tall.
    const grid = motionGridOf(WIDTH, HEIGHT);
    expect(grid).toEqual({ columns: 8, rows: 5 });
    const cellSums = new Float64Array(grid.columns * grid.rows * CELL_SUMS);
    const motion = measureMotion(frameWithBox(40), frameWithBox(46), WIDTH, HEIGHT, cellSums);
    const total = (sum: number) =>
      cellSums.filter((_, offset) => offset % CELL_SUMS === sum).reduce((a, b) => a + b, 0);
    expect(total(0) / (WIDTH * HEIGHT)).toBeCloseTo(motion.energy, 9);
    expect(total(2) / total(1)).toBeCloseTo(motion.centerX!, 9);
    expect(total(4) / total(1)).toBeCloseTo(motion.centerY!, 9);
    // The box's rows 10–19 and columns 40–45 and 46–51 changed: cells 5 and 6 of rows 1 and 2.
    const changedCells = [...Array(grid.columns * grid.rows).keys()].filter(
      (cell) => cellSums[cell * CELL_SUMS]! > 0,
    );
    expect(changedCells).toEqual([13, 14, 21, 22]);
    expect(cellSums[13 * CELL_SUMS]).toBe((48 - 40) * (16 - 10));
    expect(MOTION_CELL_PIXELS).toBe(8);
    // Without cell sums, the same measure.
    expect(measureMotion(frameWithBox(40), frameWithBox(46), WIDTH, HEIGHT)).toEqual(motion);
  });
});

describe("rgbToLuma", () => {
  it("weights green most and maps white to 255-ish and black to 0", () => {
    const rgb = new Uint8Array([255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0]);
    const luma = rgbToLuma(rgb, 4, 1);
    expect(luma[0]).toBeGreaterThanOrEqual(254);
    expect(luma[1]).toBe(0);
    expect(luma[3]!).toBeGreaterThan(luma[2]!);
  });
});
