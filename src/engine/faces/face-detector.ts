import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/** A face in a frame: box in fractions of the frame (0..1), detector confidence 0..1. */
export type FaceBox = { x: number; y: number; width: number; height: number; score: number };

/** Packed RGB24 pixels, row by row. */
export type RgbFrame = { width: number; height: number; data: Uint8Array };

export type FaceDetector = {
  /**
   * Faces on each of one or two frames of the same size, found in one inference (see
   * `stackFrames`); boxes are fractions of their own frame.
   */
  detect(frames: readonly RgbFrame[]): Promise<FaceBox[][]>;
};

/** Frames per inference: two 16:9 frames stacked are nearly square, as BlazeFace's input is. */
export const FRAMES_PER_DETECTION = 2;

/** Detections below this are mostly faces in posters, patterns and noise. */
const MIN_FACE_CONFIDENCE = 0.5;
const MAX_FACES = 6;

type WorkerReply =
  | { ready: true }
  | { ready: false; error: string }
  | { id: number; faces: FaceBox[] }
  | { id: number; error: string };

let loading: Promise<FaceDetector> | undefined;

/**
 * BlazeFace (the face detector shipped inside @vladmandic/human) on tfjs's WASM backend,
 * entirely offline: the weights ship in the npm package, the WASM binaries in
 * @tensorflow/tfjs-backend-wasm, and models are read from disk by a `file://` IO router. It runs
 * in a worker thread (face-detector-worker.cjs), loaded once per process (≈0.5 s), so the
 * 40–80 ms of synchronous inference (for two frames) never blocks the event loop: ffmpeg keeps
 * streaming frames meanwhile. The worker does not keep the process alive while idle.
 */
export function loadFaceDetector(): Promise<FaceDetector> {
  loading ??= startWorker().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

function startWorker(): Promise<FaceDetector> {
  const require = createRequire(import.meta.url);
  // The package's exports map sends "node" to the tfjs-node build (not installable offline)
  // and exposes no package.json, so the WASM build is found beside the resolved entry point.
  const humanDist = path.dirname(require.resolve("@vladmandic/human"));
  const worker = new Worker(fileURLToPath(new URL("./face-detector-worker.cjs", import.meta.url)), {
    workerData: {
      humanWasmBuildPath: path.join(humanDist, "human.node-wasm.js"),
      wasmDirectory: path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")),
      modelDirectory: path.join(humanDist, "..", "models"),
      minConfidence: MIN_FACE_CONFIDENCE,
      maxFaces: MAX_FACES,
    },
    // V8's default young generation (up to 32 MB, mostly empty) is resident memory the
    // worker holds beside a 1080×1920 encoder; 4 MB cut the detector's footprint from ~105 to
    // ~75 MB with no measurable slowdown (~50 ms a frame either way).
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  const pending = new Map<number, { resolve: (faces: FaceBox[]) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;

  const failAll = (error: Error) => {
    failure = error;
    loading = undefined;
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  };

  return new Promise<FaceDetector>((resolveReady, rejectReady) => {
    worker.on("error", (error) => {
      failAll(error);
      rejectReady(error);
    });
    worker.on("exit", (code) => {
      const error = new Error(`Face detector worker exited (code ${code})`);
      failAll(error);
      rejectReady(error);
    });
    worker.on("message", (reply: WorkerReply) => {
      if ("ready" in reply) {
        if (reply.ready) {
          worker.unref();
          resolveReady({ detect });
        } else {
          void worker.terminate();
          rejectReady(new Error(`Face detector could not load: ${reply.error}`));
        }
        return;
      }
      const request = pending.get(reply.id);
      if (!request) return;
      pending.delete(reply.id);
      if (pending.size === 0) worker.unref();
      if ("faces" in reply) request.resolve(reply.faces);
      else request.reject(new Error(reply.error));
    });
  });

  async function detect(frames: readonly RgbFrame[]): Promise<FaceBox[][]> {
    if (failure) throw failure;
    // A new buffer is transferred, so the callers' frames stay usable.
    const stacked = stackFrames(frames);
    const pixels = stacked.data.buffer as ArrayBuffer;
    const id = nextId++;
    const faces = await new Promise<FaceBox[]>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      // Referenced while a request is in flight, so the process waits for the answer.
      worker.ref();
      worker.postMessage({ id, width: stacked.width, height: stacked.height, pixels }, [pixels]);
    });
    return splitStackedFaces(faces, frames.length);
  }
}

/**
 * One or two frames of the same size, one above the other, in a new frame twice as tall; a
 * lone frame goes above black, so every frame is seen at the same scale whether it had a
 * partner or not. BlazeFace takes a square 256×256 input and stretches whatever it is given:
 * a single 16:9 frame had its faces stretched 1.8× in height, two stacked only squeezed to 0.9,
 * and one inference (~50 ms of WASM on this machine) serves two frames. On the bundled face
 * photo the score rose from 0.69 alone to 0.89 stacked.
 */
export function stackFrames(frames: readonly RgbFrame[]): RgbFrame {
  const [first, second] = frames;
  if (!first || frames.length > FRAMES_PER_DETECTION) {
    throw new Error(
      `Faces are detected on 1 to ${FRAMES_PER_DETECTION} frames at a time, got ${frames.length}`,
    );
  }
  if (second && (second.width !== first.width || second.height !== first.height)) {
    throw new Error(
      `Frames detected together must have one size: ${first.width}×${first.height} and ${second.width}×${second.height}`,
    );
  }
  const frameBytes = first.width * first.height * 3;
  for (const frame of frames) {
    if (frame.data.length !== frameBytes) {
      throw new Error(`Frame is ${frame.data.length} bytes, expected ${frame.width}×${frame.height}×3`);
    }
  }
  const data = new Uint8Array(frameBytes * FRAMES_PER_DETECTION);
  frames.forEach((frame, slot) => {
    data.set(frame.data, slot * frameBytes);
  });
  return { width: first.width, height: first.height * FRAMES_PER_DETECTION, data };
}

/**
 * Faces found on a stacked frame, given back to the frames they belong to (by the box's centre)
 * in each frame's own fractions. A box that spills over the seam is cut at it.
 */
export function splitStackedFaces(faces: readonly FaceBox[], frameCount: number): FaceBox[][] {
  const byFrame: FaceBox[][] = Array.from({ length: frameCount }, () => []);
  for (const face of faces) {
    const slot = Math.floor((face.y + face.height / 2) * FRAMES_PER_DETECTION);
    const frameFaces = byFrame[slot];
    // Nothing can be found in the black below a lone frame; a stray box there is dropped.
    if (!frameFaces) continue;
    const top = Math.max(0, face.y * FRAMES_PER_DETECTION - slot);
    const bottom = Math.min(1, (face.y + face.height) * FRAMES_PER_DETECTION - slot);
    frameFaces.push({ ...face, y: top, height: bottom - top });
  }
  return byFrame;
}
