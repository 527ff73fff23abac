import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/** A face in a frame: box in fractions of the frame (0..1), detector confidence 0..1. */
export type FaceBox = { x: number; y: number; width: number; height: number; score: number };

/** Packed RGB24 pixels, row by row. */
export type RgbFrame = { width: number; height: number; data: Uint8Array };

export type FaceDetector = {
  detect(frame: RgbFrame): Promise<FaceBox[]>;
};

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
 * 40–80 ms of synchronous inference per frame never blocks the event loop: ffmpeg keeps
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

  function detect(frame: RgbFrame): Promise<FaceBox[]> {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    // A copy is transferred, so the caller's frame stays usable.
    const pixels = frame.data.slice().buffer;
    return new Promise<FaceBox[]>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      // Referenced while a request is in flight, so the process waits for the answer.
      worker.ref();
      worker.postMessage({ id, width: frame.width, height: frame.height, pixels }, [pixels]);
    });
  }
}
