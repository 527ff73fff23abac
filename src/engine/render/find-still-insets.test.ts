import { describe, expect, it } from "vitest";
import type { ChangeMap } from "./change-map";
import { closerLookRegions, findStillInsets, insetsAroundSmallFaces } from "./find-still-insets";

const WIDTH = 256;
const HEIGHT = 144;
const SIXTEEN_NINE = 16 / 9;

/** A change map where each pixel changes by `changeAt(x, y)` luma levels between samples. */
function changeMap(changeAt: (x: number, y: number) => number, pairs = 15): ChangeMap {
  const meanChange = new Float32Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) meanChange[y * WIDTH + x] = changeAt(x, y);
  }
  return { width: WIDTH, height: HEIGHT, meanChange, pairs };
}

const inside = (x: number, y: number, box: { left: number; top: number; right: number; bottom: number }) =>
  x >= box.left && x < box.right && y >= box.top && y < box.bottom;

/** A 32×18 cam (a 240×135 one in 1080p) at the bottom right, 4 px from the edges. */
const CAM = { left: 220, top: 122, right: 252, bottom: 140 };

describe("findStillInsets", () => {
  it("finds a small still cam set into a changing game, in fractions of the frame", () => {
    const insets = findStillInsets(
      changeMap((x, y) => (inside(x, y, CAM) ? 0.5 : 4)),
      SIXTEEN_NINE,
    );
    expect(insets).toHaveLength(1);
    const [cam] = insets;
    expect(cam!.x).toBeCloseTo(CAM.left / WIDTH, 2);
    expect(cam!.y).toBeCloseTo(CAM.top / HEIGHT, 2);
    expect(cam!.width).toBeCloseTo((CAM.right - CAM.left) / WIDTH, 2);
    expect(cam!.height).toBeCloseTo((CAM.bottom - CAM.top) / HEIGHT, 2);
  });

  it("keeps the cam whose talking face changes in its middle: the wall around the head is still", () => {
    const face = { left: 230, top: 126, right: 242, bottom: 140 };
    const insets = findStillInsets(
      changeMap((x, y) => (inside(x, y, face) ? 3 : inside(x, y, CAM) ? 0.4 : 5)),
      SIXTEEN_NINE,
    );
    expect(insets).toHaveLength(1);
    expect(insets[0]!.x).toBeCloseTo(CAM.left / WIDTH, 2);
    expect(insets[0]!.width).toBeCloseTo((CAM.right - CAM.left) / WIDTH, 2);
  });

  it("lists several still patches largest first, at most three", () => {
    const boxes = [
      { left: 10, top: 10, right: 50, bottom: 34 },
      { left: 100, top: 60, right: 124, bottom: 74 },
      { left: 200, top: 10, right: 232, bottom: 28 },
      { left: 20, top: 100, right: 36, bottom: 110 },
    ];
    const insets = findStillInsets(
      changeMap((x, y) => (boxes.some((box) => inside(x, y, box)) ? 0.3 : 6)),
      SIXTEEN_NINE,
    );
    expect(insets.map((inset) => Math.round(inset.x * WIDTH))).toEqual([10, 200, 100]);
  });

  it("finds nothing where the picture is mostly still, changes everywhere, or the still part is no inset", () => {
    // A still picture with a little noise: nothing to set a cam apart from.
    expect(
      findStillInsets(
        changeMap((x, y) => (inside(x, y, CAM) ? 0.1 : 0.6)),
        SIXTEEN_NINE,
      ),
    ).toEqual([]);
    // A game with no still patch.
    expect(
      findStillInsets(
        changeMap(() => 5),
        SIXTEEN_NINE,
      ),
    ).toEqual([]);
    // A card bouncing across the middle half: the still bands above and below span the width.
    expect(
      findStillInsets(
        changeMap((_x, y) => (y >= 36 && y < 108 ? 8 : 0.2)),
        SIXTEEN_NINE,
      ),
    ).toEqual([]);
    // A chat column: still, but a strip, not a cam.
    expect(
      findStillInsets(
        changeMap((x) => (x >= 216 ? 0.3 : 5)),
        SIXTEEN_NINE,
      ),
    ).toEqual([]);
    // A still patch half the frame: part of the picture.
    expect(
      findStillInsets(
        changeMap((x) => (x < 128 ? 0.3 : 5)),
        SIXTEEN_NINE,
      ),
    ).toEqual([]);
  });

  it("needs more than one pair of frames: one pair cannot tell a quiet patch of the game from a cam", () => {
    expect(
      findStillInsets(
        changeMap((x, y) => (inside(x, y, CAM) ? 0.5 : 4), 1),
        SIXTEEN_NINE,
      ),
    ).toEqual([]);
  });
});

describe("closerLookRegions", () => {
  it("cuts a frame-shaped region around each inset with a margin, inside the frame", () => {
    // A 16:9 cam in the bottom-right corner: its region is 1.5 times its size, pushed inside.
    const [region] = closerLookRegions([{ x: 0.85, y: 0.85, width: 0.12, height: 0.12 }]);
    expect(region!.width).toBeCloseTo(0.18, 5);
    expect(region!.height).toBeCloseTo(0.18, 5);
    expect(region!.x + region!.width).toBeCloseTo(1, 5);
    expect(region!.y + region!.height).toBeCloseTo(1, 5);
    // A 4:3 cam (taller than the frame's shape) is framed by its height.
    const [tall] = closerLookRegions([{ x: 0.1, y: 0.1, width: 0.1, height: 0.2 }]);
    expect(tall).toEqual({
      x: expect.closeTo(0, 5),
      y: expect.closeTo(0.05, 5),
      width: expect.closeTo(0.3, 5),
      height: expect.closeTo(0.3, 5),
    });
  });

  it("joins overlapping regions into one, so a face is not looked for twice, and leaves out what is not closer", () => {
    const regions = closerLookRegions([
      { x: 0.8, y: 0.8, width: 0.12, height: 0.12 },
      { x: 0.7, y: 0.75, width: 0.06, height: 0.06 },
      { x: 0.05, y: 0.05, width: 0.1, height: 0.1 },
    ]);
    expect(regions).toHaveLength(2);
    const [joined, apart] = regions;
    // Both insets inside it, whole.
    expect(joined!.x).toBeLessThanOrEqual(0.7);
    expect(joined!.y).toBeLessThanOrEqual(0.75);
    expect(joined!.x + joined!.width).toBeGreaterThanOrEqual(0.92);
    expect(joined!.y + joined!.height).toBeGreaterThanOrEqual(0.92);
    expect(apart).toEqual({
      x: expect.closeTo(0.025, 5),
      y: expect.closeTo(0.025, 5),
      width: expect.closeTo(0.15, 5),
      height: expect.closeTo(0.15, 5),
    });
    expect(closerLookRegions([{ x: 0.2, y: 0.2, width: 0.5, height: 0.5 }])).toEqual([]);
  });
});

describe("insetsAroundSmallFaces", () => {
  const face = (x: number, y: number, height: number) => ({ x, y, width: height * 0.56, height, score: 0.6 });

  it("puts a cam-sized box around each place a small face was seen, the most often seen first", () => {
    const insets = insetsAroundSmallFaces([
      { faces: [face(0.9, 0.85, 0.1)] },
      { faces: [] },
      { faces: [face(0.1, 0.1, 0.08), face(0.905, 0.855, 0.1)] },
      { faces: [face(0.9, 0.85, 0.1)] },
    ]);
    expect(insets).toHaveLength(2);
    // Seen three times: 2.5 face sizes around the first sighting.
    expect(insets[0]!.height).toBeCloseTo(0.25, 5);
    expect(insets[0]!.x + insets[0]!.width / 2).toBeCloseTo(0.9 + 0.028, 5);
    expect(insets[1]!.height).toBeCloseTo(0.2, 5);
  });

  it("ignores faces large enough for the whole frame, and small ones it saw on nearly every sample", () => {
    expect(insetsAroundSmallFaces([{ faces: [face(0.4, 0.2, 0.3)] }, { faces: [] }])).toEqual([]);
    const seenWell = Array.from({ length: 5 }, (_, sample) => ({
      faces: sample < 4 ? [face(0.9, 0.85, 0.1)] : [],
    }));
    expect(insetsAroundSmallFaces(seenWell)).toEqual([]);
    expect(insetsAroundSmallFaces(seenWell.slice(0, 4).concat({ faces: [] }, { faces: [] }))).toHaveLength(1);
  });

  it("ignores a place glimpsed once in many samples: a chance detection", () => {
    const samples = Array.from({ length: 18 }, (_, sample) => ({
      faces: sample === 7 ? [face(0.3, 0.4, 0.05)] : [],
    }));
    expect(insetsAroundSmallFaces(samples)).toEqual([]);
    samples[12] = { faces: [face(0.3, 0.4, 0.05)] };
    samples[15] = { faces: [face(0.3, 0.4, 0.05)] };
    samples[17] = { faces: [face(0.3, 0.4, 0.05)] };
    expect(insetsAroundSmallFaces(samples)).toHaveLength(1);
  });
});
