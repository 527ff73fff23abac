import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fileModelRouter } from "./file-model-router";

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

// The slice of @vladmandic/human's API we use; its bundled typings pull in all of tfjs.
type HumanTensor = { dispose(): void };
type HumanTf = {
  tensor3d(values: Uint8Array, shape: [number, number, number], dtype: "int32"): HumanTensor;
  io: { registerLoadRouter(router: typeof fileModelRouter): void };
};
type HumanInstance = {
  tf: HumanTf;
  models: { models: Record<string, unknown> };
  load(): Promise<void>;
  detect(
    input: HumanTensor,
  ): Promise<{ face: { score: number; boxRaw: [number, number, number, number] }[] }>;
};
type HumanModule = { Human: new (config: Record<string, unknown>) => HumanInstance };

let loading: Promise<FaceDetector> | undefined;

/**
 * BlazeFace (the short-range face detector) through @vladmandic/human on tfjs's WASM backend,
 * entirely offline: the weights ship inside the npm package, the WASM binaries inside
 * @tensorflow/tfjs-backend-wasm, and models are read from disk by a `file://` IO router. The
 * detector is loaded once per process (≈0.5 s) and detections are serialised, since Human keeps
 * per-call state.
 */
export function loadFaceDetector(): Promise<FaceDetector> {
  loading ??= createFaceDetector().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function createFaceDetector(): Promise<FaceDetector> {
  const require = createRequire(import.meta.url);
  // The package's exports map points "node" at the tfjs-node build (not installable offline)
  // and exposes no package.json, so the WASM build is loaded by path from the resolved entry.
  const humanDist = path.dirname(require.resolve("@vladmandic/human"));
  const { Human } = require(path.join(humanDist, "human.node-wasm.js")) as HumanModule;
  const wasmDirectory = path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm"));
  const modelDirectory = path.join(humanDist, "..", "models");

  const human = new Human({
    backend: "wasm",
    // tfjs-backend-wasm reads the .wasm from this directory with fs in Node; trailing slash needed.
    wasmPath: `${wasmDirectory}${path.sep}`,
    wasmPlatformFetch: false,
    modelBasePath: `${pathToFileURL(modelDirectory).href}/`,
    debug: false,
    async: true,
    warmup: "none",
    cacheModels: false,
    // Frames are independent samples: never reuse a previous frame's result.
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: {
      enabled: true,
      detector: {
        rotation: false,
        maxDetected: MAX_FACES,
        skipFrames: 0,
        skipTime: 0,
        minConfidence: MIN_FACE_CONFIDENCE,
        return: false,
      },
      mesh: { enabled: false },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      attention: { enabled: false },
      gear: { enabled: false },
      ssrnet: { enabled: false },
      mobilefacenet: { enabled: false },
      insightface: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  });
  human.tf.io.registerLoadRouter(fileModelRouter);
  await human.load();
  // Human logs a failed model load and carries on with no detector; fail loudly instead.
  if (!human.models.models.blazeface) throw new Error(`BlazeFace model did not load from ${modelDirectory}`);

  let queue: Promise<unknown> = Promise.resolve();
  const detectNow = async (frame: RgbFrame): Promise<FaceBox[]> => {
    if (frame.data.length !== frame.width * frame.height * 3) {
      throw new Error(`Frame is ${frame.data.length} bytes, expected ${frame.width}×${frame.height}×3`);
    }
    const tensor = human.tf.tensor3d(frame.data, [frame.height, frame.width, 3], "int32");
    try {
      const result = await human.detect(tensor);
      return result.face
        .filter((face) => face.score >= MIN_FACE_CONFIDENCE)
        .map((face) => {
          const [x, y, width, height] = face.boxRaw;
          return { x, y, width, height, score: face.score };
        });
    } finally {
      tensor.dispose();
    }
  };
  return {
    detect(frame) {
      const result = queue.then(() => detectNow(frame));
      queue = result.catch(() => undefined);
      return result;
    },
  };
}
