import { describe, expect, it } from "vitest";
import type { FaceBox, FaceDetector, RgbFrame } from "@/engine/faces/face-detector";
import { pairFaceDetection } from "./paired-face-detection";

const WIDTH = 4;
const HEIGHT = 2;

/** A flat frame of one grey level, with its luma. */
function flat(level: number): [RgbFrame, Uint8Array] {
  const frame = { width: WIDTH, height: HEIGHT, data: new Uint8Array(WIDTH * HEIGHT * 3).fill(level) };
  return [frame, new Uint8Array(WIDTH * HEIGHT).fill(level)];
}

/** Reports one face per frame whose x is the frame's grey level / 255; records every inference. */
function recordingDetector() {
  const inferences: number[][] = [];
  let running = 0;
  let mostRunning = 0;
  const detector: FaceDetector = {
    detect: async (frames) => {
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      inferences.push(frames.map((frame) => frame.data[0]!));
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return frames.map((frame): FaceBox[] => [
        { x: frame.data[0]! / 255, y: 0.4, width: 0.1, height: 0.2, score: 0.9 },
      ]);
    },
  };
  return { detector, inferences, mostRunning: () => mostRunning };
}

describe("pairFaceDetection", () => {
  it("detects frames two to an inference, in order, one inference at a time", async () => {
    const { detector, inferences, mostRunning } = recordingDetector();
    const detection = pairFaceDetection(detector, WIDTH, HEIGHT);
    for (const level of [10, 60, 110, 160, 210]) await detection.add(...flat(level));
    const faces = await detection.finish();
    expect(inferences).toEqual([[10, 60], [110, 160], [210]]);
    expect(faces.map((frameFaces) => Math.round(frameFaces[0]!.x * 255))).toEqual([10, 60, 110, 160, 210]);
    expect(mostRunning()).toBe(1);
  });

  it("reuses the faces of a recent picture when a frame looks the same", async () => {
    const { detector, inferences } = recordingDetector();
    const detection = pairFaceDetection(detector, WIDTH, HEIGHT);
    // 101 differs from 100 by 0.4% of the range: the same picture. 200 is another.
    for (const level of [100, 101, 100, 200]) await detection.add(...flat(level));
    const faces = await detection.finish();
    expect(inferences).toEqual([[100, 200]]);
    expect(faces.map((frameFaces) => Math.round(frameFaces[0]!.x * 255))).toEqual([100, 100, 100, 200]);
  });

  it("remembers the last four pictures: cutting back to an earlier angle costs no inference", async () => {
    const { detector, inferences } = recordingDetector();
    const detection = pairFaceDetection(detector, WIDTH, HEIGHT);
    // Two angles cut back and forth, then four new pictures push the first two out.
    for (const level of [40, 90, 40, 90, 40, 140, 190, 240, 20, 40]) await detection.add(...flat(level));
    await detection.finish();
    expect(inferences).toEqual([[40, 90], [140, 190], [240, 20], [40]]);
  });

  it("passes a failed inference on to the caller, without leaving a rejection unhandled", async () => {
    let calls = 0;
    const detection = pairFaceDetection(
      {
        detect: async () => {
          calls += 1;
          throw new Error("inference failed");
        },
      },
      WIDTH,
      HEIGHT,
    );
    await detection.add(...flat(10));
    await detection.add(...flat(60));
    await detection.add(...flat(110));
    // The third pair waits for the first: its failure stops the caller there.
    await expect(detection.add(...flat(160))).rejects.toThrow("inference failed");
    await expect(detection.finish()).rejects.toThrow("inference failed");
    expect(calls).toBe(1);
  });

  it("finishes with no frames at all", async () => {
    const { detector, inferences } = recordingDetector();
    expect(await pairFaceDetection(detector, WIDTH, HEIGHT).finish()).toEqual([]);
    expect(inferences).toEqual([]);
  });
});
