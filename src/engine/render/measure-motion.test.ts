import { describe, expect, it } from "vitest";
import { measureMotion, rgbToLuma } from "./measure-motion";

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

describe("rgbToLuma", () => {
  it("weights green most and maps white to 255-ish and black to 0", () => {
    const rgb = new Uint8Array([255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0]);
    const luma = rgbToLuma(rgb, 4, 1);
    expect(luma[0]).toBeGreaterThanOrEqual(254);
    expect(luma[1]).toBe(0);
    expect(luma[3]!).toBeGreaterThan(luma[2]!);
  });
});
