import { describe, expect, it } from "vitest";
import { type CellMotion, findMotionOverlays, motionOutside, packCellMotion } from "./find-motion-overlays";
import { CELL_SUMS, type MotionMeasure, measureMotion, motionGridOf } from "./measure-motion";

/** The analysis frame of a 16:9 source: a 32×18 grid of 8-px cells. */
const WIDTH = 256;
const HEIGHT = 144;
const GRID = { width: WIDTH, height: HEIGHT, ...motionGridOf(WIDTH, HEIGHT) };

type Box = { left: number; top: number; right: number; bottom: number };
/** Paints frame `index` of a clip: a dark picture and what `draw` puts on it. */
type Painter = (paint: (box: Box, luma: number) => void, index: number) => void;

/** The clip's frames, painted, and the motion between each two with its cells, as the pass has them. */
function sampleClip(frameCount: number, draw: Painter) {
  const frames = Array.from({ length: frameCount }, (_, index) => {
    const luma = new Uint8Array(WIDTH * HEIGHT).fill(16);
    draw((box, value) => {
      for (let y = Math.max(0, box.top); y < Math.min(HEIGHT, box.bottom); y += 1) {
        for (let x = Math.max(0, box.left); x < Math.min(WIDTH, box.right); x += 1)
          luma[y * WIDTH + x] = value;
      }
    }, index);
    return luma;
  });
  const cellSums = new Float64Array(GRID.columns * GRID.rows * CELL_SUMS);
  const measures: MotionMeasure[] = [];
  const cells: CellMotion[] = [];
  for (let index = 1; index < frames.length; index += 1) {
    measures.push(measureMotion(frames[index - 1]!, frames[index]!, WIDTH, HEIGHT, cellSums));
    cells.push(packCellMotion(cellSums));
    cellSums.fill(0);
  }
  return { measures, cells };
}

/** A white box 26 px wide (64 px of a 640-px source) crossing the frame's middle, 6 px a sample. */
const boxAt = (index: number): Box => ({ left: 20 + index * 6, top: 59, right: 46 + index * 6, bottom: 85 });
const crossingBox: Painter = (paint, index) => paint(boxAt(index), 240);

/**
 * A running timecode at the top left (as drawtext's `%{pts\:hms}` burns it in): its fractions
 * change every sample, its seconds digit every fourth, the rest never.
 */
const timecode: Painter = (paint, index) => {
  paint({ left: 6, top: 4, right: 60, bottom: 14 }, 200);
  for (let digit = 0; digit < 3; digit += 1) {
    const left = 40 + digit * 7;
    paint(
      { left, top: 5 + ((index + digit) % 3) * 2, right: left + 5, bottom: 8 + ((index + digit) % 3) * 2 },
      30,
    );
  }
  const seconds = Math.floor(index / 4);
  paint({ left: 32, top: 5 + (seconds % 3) * 2, right: 37, bottom: 8 + (seconds % 3) * 2 }, 30);
};

const both =
  (...painters: Painter[]): Painter =>
  (paint, index) => {
    for (const painter of painters) painter(paint, index);
  };

describe("findMotionOverlays", () => {
  it("finds a running timecode beside a crossing box, and the motion without it follows the box", () => {
    const { measures, cells } = sampleClip(33, both(crossingBox, timecode));
    const overlays = findMotionOverlays(cells, GRID);
    expect(overlays.regions).toHaveLength(1);
    const [region] = overlays.regions;
    // Its box holds the changing digits (x 32–61 px, y 5–14 px): cells of 8 px around them.
    expect(region!.x).toBeLessThanOrEqual(32 / WIDTH);
    expect(region!.x + region!.width).toBeGreaterThanOrEqual(61 / WIDTH);
    expect(region!.y + region!.height).toBeGreaterThanOrEqual(14 / HEIGHT);
    expect(region!.width * region!.height).toBeLessThan(0.05);

    // Without it, the motion is the box's alone, as in a clip without a timecode.
    const boxAlone = sampleClip(33, crossingBox).measures;
    measures.forEach((measure, index) => {
      const outside = motionOutside(measure, cells[index]!, overlays.masked, GRID);
      expect(outside.energy).toBeCloseTo(boxAlone[index]!.energy, 6);
      expect(outside.centerX).toBeCloseTo(boxAlone[index]!.centerX!, 6);
      expect(outside.centerY).toBeCloseTo(boxAlone[index]!.centerY!, 6);
      expect(outside.spreadX).toBeCloseTo(boxAlone[index]!.spreadX, 6);
      expect(outside.meanDifference).toBe(measure.meanDifference);
    });
    // With it, the motion's centre is pulled towards the top left.
    const pulled = measures.filter((measure, index) => boxAlone[index]!.centerX! - measure.centerX! > 0.02);
    expect(pulled.length).toBeGreaterThan(measures.length / 2);
  });

  it("finds none where only a subject moves: a box crossing the frame changes each cell for a sample or two", () => {
    const { measures, cells } = sampleClip(33, crossingBox);
    const overlays = findMotionOverlays(cells, GRID);
    expect(overlays.regions).toEqual([]);
    expect(overlays.masked.every((cell) => cell === 0)).toBe(true);
    expect(motionOutside(measures[5]!, cells[5]!, overlays.masked, GRID)).toEqual(measures[5]);
  });

  it("finds none where a subject moves slowly: a box crossing its own width twice in 2 s changes its cells in most samples", () => {
    const { cells } = sampleClip(9, crossingBox);
    expect(findMotionOverlays(cells, GRID).regions).toEqual([]);
    // Its own width in 8 s, at 1 px a sample.
    const slower: Painter = (paint, index) =>
      paint({ left: 100 + index, top: 59, right: 126 + index, bottom: 85 }, 240);
    expect(findMotionOverlays(sampleClip(33, slower).cells, GRID).regions).toEqual([]);
  });

  it("takes a chat box whose text scrolls for an overlay, but not a region as large as a sixth of the frame", () => {
    /** Lines of text scrolling up a box, a line every sample. */
    const scrolling =
      (box: Box): Painter =>
      (paint, index) => {
        paint(box, 60);
        for (let y = box.top + 2 - (index % 2) * 3; y < box.bottom - 3; y += 6) {
          paint({ left: box.left + 3, top: Math.max(box.top, y), right: box.right - 3, bottom: y + 3 }, 220);
        }
      };
    // 56 × 80 px: 12% of the frame, as a 400×600 chat box in 1080p.
    const chat = { left: 196, top: 40, right: 252, bottom: 120 };
    const small = findMotionOverlays(sampleClip(33, both(crossingBox, scrolling(chat))).cells, GRID);
    expect(small.regions).toHaveLength(1);
    expect(small.regions[0]!.x).toBeCloseTo(192 / WIDTH, 2);
    // 120 × 80 px: 26%: the picture itself keeps changing there, not an overlay.
    const wide = { left: 132, top: 40, right: 252, bottom: 120 };
    expect(
      findMotionOverlays(sampleClip(33, both(crossingBox, scrolling(wide))).cells, GRID).regions,
    ).toEqual([]);
  });

  it("finds none where the whole picture keeps changing (a game, a pan)", () => {
    const game: Painter = (paint, index) => {
      for (let y = 0; y < HEIGHT; y += 12) {
        paint({ left: 0, top: y, right: WIDTH, bottom: y + 6 }, (index * 40 + y) % 200);
      }
    };
    expect(findMotionOverlays(sampleClip(33, both(game, timecode)).cells, GRID).regions).toEqual([]);
  });

  it("does not count cuts (every cell changes) towards what keeps changing", () => {
    // A cut every fourth sample: counted, every cell would change in a quarter of the samples,
    // and the timecode would spread over the whole frame, no overlay.
    const cutEvery4: Painter = (paint, index) =>
      paint({ left: 0, top: 0, right: WIDTH, bottom: HEIGHT }, Math.floor(index / 4) % 2 ? 120 : 16);
    const { cells } = sampleClip(33, both(cutEvery4, timecode));
    expect(findMotionOverlays(cells, GRID).regions).toHaveLength(1);
    // Cuts alone are no overlay, however often they come.
    const cutEverySample: Painter = (paint, index) =>
      paint({ left: 0, top: 0, right: WIDTH, bottom: HEIGHT }, index % 2 ? 200 : 16);
    expect(findMotionOverlays(sampleClip(33, cutEverySample).cells, GRID).regions).toEqual([]);
  });

  it("says nothing from fewer than 8 samples (2 s at 4 fps)", () => {
    expect(findMotionOverlays(sampleClip(8, both(crossingBox, timecode)).cells, GRID).regions).toEqual([]);
    expect(findMotionOverlays(sampleClip(9, both(crossingBox, timecode)).cells, GRID).regions).toHaveLength(
      1,
    );
  });

  it("leaves no motion where only the overlay changed", () => {
    const { measures, cells } = sampleClip(17, timecode);
    const overlays = findMotionOverlays(cells, GRID);
    expect(measures[3]!.energy).toBeGreaterThan(0);
    expect(motionOutside(measures[3]!, cells[3]!, overlays.masked, GRID)).toMatchObject({
      energy: 0,
      centerX: null,
      centerY: null,
      spreadX: 0,
    });
  });
});
