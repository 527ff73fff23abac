import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";
import { loadFaceDetector, type RgbFrame } from "./face-detector";

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
  const chunks: Buffer[] = [];
  await runMedia({
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
    consumeStdout: async (stdout) => {
      for await (const chunk of stdout) chunks.push(chunk as Buffer);
    },
  });
  return { width, height, data: new Uint8Array(Buffer.concat(chunks)) };
}

describe("face detector (BlazeFace on tfjs WASM, offline)", () => {
  it("finds the one face in the sample image, where it is", async () => {
    const detector = await loadFaceDetector();
    // 800×564 screenshot; the face sits in the photo at the top left (x ≈ 2–15%, y ≈ 20–40%).
    const frame = await decodeFrame(["-i", faceImagePath], 400, 282);
    const faces = await detector.detect(frame);
    expect(faces).toHaveLength(1);
    const face = faces[0]!;
    expect(face.score).toBeGreaterThan(0.6);
    const centerX = face.x + face.width / 2;
    const centerY = face.y + face.height / 2;
    expect(centerX).toBeGreaterThan(0.02);
    expect(centerX).toBeLessThan(0.18);
    expect(centerY).toBeGreaterThan(0.15);
    expect(centerY).toBeLessThan(0.45);
  });

  it("finds no face in a synthetic test pattern, and rejects a frame of the wrong size", async () => {
    const detector = await loadFaceDetector();
    const pattern = await decodeFrame(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=1"], 256, 144);
    expect(await detector.detect(pattern)).toEqual([]);
    await expect(detector.detect({ width: 10, height: 10, data: new Uint8Array(5) })).rejects.toThrow(
      /expected 10×10×3/,
    );
  });

  it("is loaded once per process", async () => {
    expect(await loadFaceDetector()).toBe(await loadFaceDetector());
  });
});
