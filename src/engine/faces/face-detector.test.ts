import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { readMediaStdout } from "@/media/run-ffmpeg";
import {
  type FaceBox,
  loadFaceDetector,
  type RgbFrame,
  splitStackedFaces,
  stackFrames,
} from "./face-detector";

const { ffmpegPath } = resolveMediaBinaries();
const require = createRequire(import.meta.url);
// @vladmandic/human ships demo screenshots; this one shows a single person's face at the left.
const faceImagePath = path.join(
  path.dirname(require.resolve("@vladmandic/human")),
  "..",
  "assets",
  "screenshot-faceid.jpg",
);

async function decodeFrame(inputArgs: string[], width: number, height: number): Promise<RgbFrame> {
  const pixels = await readMediaStdout({
    binaryPath: ffmpegPath,
    args: [
      "-v",
      "error",
      ...inputArgs,
      "-frames:v",
      "1",
      "-vf",
      `scale=${width}:${height}`,
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "pipe:1",
    ],
    timeoutMs: 20_000,
  });
  return { width, height, data: new Uint8Array(pixels) };
}

/** The face photo's one face: centre at x ≈ 2–18%, y ≈ 15–45% of the frame. */
function expectThePhotoFace(faces: FaceBox[] | undefined) {
  expect(faces).toHaveLength(1);
  const face = faces![0]!;
  expect(face.score).toBeGreaterThan(0.6);
  const centerX = face.x + face.width / 2;
  const centerY = face.y + face.height / 2;
  expect(centerX).toBeGreaterThan(0.02);
  expect(centerX).toBeLessThan(0.18);
  expect(centerY).toBeGreaterThan(0.15);
  expect(centerY).toBeLessThan(0.45);
}

describe("face detector (BlazeFace on tfjs WASM, offline)", () => {
  // 800×564 screenshot; the face sits in the photo at the top left.
  const photoFrame = () => decodeFrame(["-i", faceImagePath], 400, 282);
  const patternFrame = () => decodeFrame(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=1"], 400, 282);

  it("finds the one face in the sample image, where it is", async () => {
    const detector = await loadFaceDetector();
    const [faces, ...others] = await detector.detect([await photoFrame()]);
    expectThePhotoFace(faces);
    expect(others).toEqual([]);
  });

  it("detects two frames in one inference, each face given to its own frame", async () => {
    const detector = await loadFaceDetector();
    const [photo, pattern] = [await photoFrame(), await patternFrame()];
    const [photoFirst, patternSecond] = await detector.detect([photo, pattern]);
    expectThePhotoFace(photoFirst);
    expect(patternSecond).toEqual([]);
    const [patternFirst, photoSecond] = await detector.detect([pattern, photo]);
    expect(patternFirst).toEqual([]);
    expectThePhotoFace(photoSecond);
  });

  it("finds no face in a synthetic test pattern, and rejects frames it cannot stack", async () => {
    const detector = await loadFaceDetector();
    const pattern = await decodeFrame(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=1"], 256, 144);
    expect(await detector.detect([pattern])).toEqual([[]]);
    await expect(detector.detect([{ width: 10, height: 10, data: new Uint8Array(5) }])).rejects.toThrow(
      /expected 10×10×3/,
    );
    await expect(detector.detect([pattern, await patternFrame()])).rejects.toThrow(/one size/);
    await expect(detector.detect([pattern, pattern, pattern])).rejects.toThrow(/1 to 2 frames/);
    await expect(detector.detect([])).rejects.toThrow(/1 to 2 frames/);
  });

  it("is loaded once per process", async () => {
    expect(await loadFaceDetector()).toBe(await loadFaceDetector());
  });
});

describe("stackFrames and splitStackedFaces", () => {
  const frame = (value: number): RgbFrame => ({ width: 2, height: 1, data: new Uint8Array(6).fill(value) });

  it("puts the frames one above the other, a lone frame above black", () => {
    expect(stackFrames([frame(1), frame(2)])).toEqual({
      width: 2,
      height: 2,
      data: new Uint8Array([1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]),
    });
    expect(stackFrames([frame(7)]).data).toEqual(new Uint8Array([7, 7, 7, 7, 7, 7, 0, 0, 0, 0, 0, 0]));
  });

  it("gives each box to the frame holding its centre, in that frame's fractions", () => {
    const box = (y: number, height: number): FaceBox => ({ x: 0.1, y, width: 0.2, height, score: 0.9 });
    expect(splitStackedFaces([box(0.1, 0.1), box(0.6, 0.2)], 2)).toEqual([
      [box(0.2, 0.2)],
      [{ ...box(0.2, 0.4), y: expect.closeTo(0.2, 9), height: expect.closeTo(0.4, 9) }],
    ]);
    // Over the seam, but centred in the lower frame: cut at the seam.
    const [upper, lower] = splitStackedFaces([box(0.45, 0.2)], 2);
    expect(upper).toEqual([]);
    expect(lower![0]!.y).toBe(0);
    expect(lower![0]!.height).toBeCloseTo(0.3, 9);
    // A lone frame: a box in the black below it is noise.
    expect(splitStackedFaces([box(0.7, 0.1)], 1)).toEqual([[]]);
  });
});
