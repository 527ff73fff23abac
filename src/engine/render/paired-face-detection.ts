import {
  type FaceBox,
  type FaceDetector,
  FRAMES_PER_DETECTION,
  type RgbFrame,
} from "@/engine/faces/face-detector";
import { measureMotion } from "./measure-motion";

/** Mean luma change (0..1) below which two frames count as the same picture. */
const SAME_PICTURE_DIFFERENCE = 0.01;
/**
 * Pictures remembered with their faces: an edit that cuts back and forth between a few camera
 * angles (an interview, a podcast, gameplay and a face cam) shows each again and again.
 */
const REMEMBERED_PICTURES = 4;

export type PairedFaceDetection = {
  /**
   * Queues a frame for detection. Resolves once the detector can take more (at most one
   * inference in flight), so a caller that awaits it holds decoding back instead of piling
   * frames up in memory; a detection failure is thrown here or from `finish`.
   */
  add(frame: RgbFrame, luma: Uint8Array): Promise<void>;
  /** Detects a frame still waiting for a partner, then every added frame's faces, in order. */
  finish(): Promise<FaceBox[][]>;
};

/**
 * Feeds frames to the detector two per inference, in the order they come, while decoding goes
 * on. A frame that looks like one of the last few pictures queued reuses its faces: a talking
 * head on a still camera costs one inference, not one per sample, and a cut back to an earlier
 * angle costs none.
 */
export function pairFaceDetection(
  detector: FaceDetector,
  width: number,
  height: number,
): PairedFaceDetection {
  const results: Promise<FaceBox[]>[] = [];
  let waiting: { frame: RgbFrame; settle: (faces: Promise<FaceBox[]>) => void }[] = [];
  const remembered: { luma: Uint8Array; faces: Promise<FaceBox[]> }[] = [];
  let inFlight: Promise<unknown> = Promise.resolve();

  const send = async () => {
    const batch = waiting;
    waiting = [];
    // One inference after another: a failure is every later frame's too, and reaches the
    // caller through `add` (below) or `finish`.
    const previous = inFlight;
    const detection = previous.then(() => detector.detect(batch.map((entry) => entry.frame)));
    batch.forEach((entry, slot) => {
      entry.settle(detection.then((faces) => faces[slot] ?? []));
    });
    inFlight = detection;
    await previous;
  };

  return {
    async add(frame, luma) {
      const seen = remembered.find(
        (picture) =>
          measureMotion(picture.luma, luma, width, height).meanDifference < SAME_PICTURE_DIFFERENCE,
      );
      if (seen) {
        results.push(seen.faces);
        return;
      }
      const faces = new Promise<FaceBox[]>((settle) => waiting.push({ frame, settle }));
      // Read in `finish`; until then a failure must not count as unhandled.
      faces.catch(() => undefined);
      results.push(faces);
      remembered.unshift({ luma, faces });
      remembered.length = Math.min(remembered.length, REMEMBERED_PICTURES);
      if (waiting.length === FRAMES_PER_DETECTION) await send();
    },
    async finish() {
      if (waiting.length > 0) await send();
      return Promise.all(results);
    },
  };
}
