import { describe, expect, it } from "vitest";
import type { ChangeMap } from "./change-map";
import { findFacecamBounds } from "./find-facecam-bounds";

const [WIDTH, HEIGHT] = [256, 144];

/**
 * A change map: the game changes by `gameChange` everywhere but in the cam (pixel box
 * [left, right) × [top, bottom)), where the room changes by 2 and the face inside by 6.
 */
function changeMap(
  cam: { left: number; right: number; top: number; bottom: number },
  face: { left: number; right: number; top: number; bottom: number },
  gameChange = 25,
): ChangeMap {
  const meanChange = new Float32Array(WIDTH * HEIGHT);
  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      const inside = (box: typeof cam) => x >= box.left && x < box.right && y >= box.top && y < box.bottom;
      meanChange[y * WIDTH + x] = inside(face) ? 6 : inside(cam) ? 2 : gameChange;
    }
  }
  return { width: WIDTH, height: HEIGHT, meanChange, pairs: 12 };
}

const fractions = (box: { left: number; right: number; top: number; bottom: number }) => ({
  x: box.left / WIDTH,
  y: box.top / HEIGHT,
  width: (box.right - box.left) / WIDTH,
  height: (box.bottom - box.top) / HEIGHT,
});

describe("findFacecamBounds", () => {
  const cam = { left: 180, right: 244, top: 90, bottom: 136 };
  const face = { left: 200, right: 222, top: 98, bottom: 124 };

  it("finds the cam's four edges where the still cam meets the changing game, inside their blur", () => {
    expect(findFacecamBounds(changeMap(cam, face), fractions(face))).toEqual({
      // Two pixels in: the strips either side of a boundary skip a pixel of blur.
      left: 182 / WIDTH,
      right: 242 / WIDTH,
      top: 92 / HEIGHT,
      bottom: 134 / HEIGHT,
    });
  });

  it("finds an edge the detector's face box reaches past (a close-up filling its cam)", () => {
    const wideFace = { left: 176, right: 226, top: 98, bottom: 124 };
    expect(findFacecamBounds(changeMap(cam, face), fractions(wideFace)).left).toBe(182 / WIDTH);
  });

  it("leaves out a side with no step: the cam runs to the frame's edge, or the game is still", () => {
    const flush = { left: 180, right: WIDTH, top: 90, bottom: HEIGHT };
    expect(findFacecamBounds(changeMap(flush, face), fractions(face))).toEqual({
      left: 182 / WIDTH,
      top: 92 / HEIGHT,
    });
    expect(findFacecamBounds(changeMap(cam, face, 3), fractions(face))).toEqual({});
  });

  it("looks no farther than a cam's reach: a still patch far from the face is not its edge", () => {
    // The still region extends far to the left of a small face: no edge within reach there.
    const wideStill = { left: 20, right: 244, top: 90, bottom: 136 };
    const bounds = findFacecamBounds(changeMap(wideStill, face), fractions(face));
    expect(bounds.left).toBeUndefined();
    expect(bounds.right).toBe(242 / WIDTH);
  });

  it("puts a blurred edge inside its blur, where the still cam begins", () => {
    // The left edge fades over three pixels (177–179): 25, then 16, 10, 5, then the cam's 2.
    const map = changeMap(cam, face);
    for (let y = 0; y < HEIGHT; y += 1) {
      [16, 10, 5].forEach((value, offset) => {
        map.meanChange[y * WIDTH + 177 + offset] = value;
      });
    }
    const left = findFacecamBounds(map, fractions(face)).left! * WIDTH;
    expect(left).toBeGreaterThanOrEqual(179);
    expect(left).toBeLessThanOrEqual(182);
  });

  it("reads along the middle of the face, so the game past a close-up's box makes no false edge", () => {
    // A still cam (a photo, a static room), and a face box reaching 6 rows below it, where the
    // game is nearly still up to column 232 and changes after it: read across those rows, that
    // step would look like the cam's right edge.
    const closeUp = { left: 196, right: 226, top: 102, bottom: 142 };
    const map = changeMap(cam, face);
    for (let y = 0; y < HEIGHT; y += 1) {
      for (let x = 0; x < WIDTH; x += 1) {
        const inCam = x >= cam.left && x < cam.right && y >= cam.top && y < cam.bottom;
        if (inCam) map.meanChange[y * WIDTH + x] = 0;
        else if (y >= cam.bottom) map.meanChange[y * WIDTH + x] = x < 232 ? 1 : 25;
      }
    }
    expect(findFacecamBounds(map, fractions(closeUp)).right).toBe(242 / WIDTH);
  });
});
