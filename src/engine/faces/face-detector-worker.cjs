// Face detection in a worker thread: BlazeFace through @vladmandic/human on tfjs's WASM
// backend. WASM inference runs synchronously for 40–80 ms a frame; on the main thread that
// would stall everything else, including the pipe ffmpeg streams frames through, so decoding
// and detection could not overlap. Plain CommonJS so that Node, tsx and vitest all load it
// as it is. face-detector.ts owns the protocol: { id, width, height, pixels } in,
// { id, faces } or { id, error } out.
"use strict";

const { readFileSync } = require("node:fs");
const path = require("node:path");
const { fileURLToPath } = require("node:url");
const { isMainThread, parentPort, workerData } = require("node:worker_threads");

/**
 * Reads a tfjs graph model (model JSON plus weight shards) from disk. tfjs reads local files
 * only through @tensorflow/tfjs-node, which cannot be installed offline.
 */
function loadModelArtifacts(modelJsonPath) {
  const json = JSON.parse(readFileSync(modelJsonPath, "utf8"));
  if (!json.modelTopology || !Array.isArray(json.weightsManifest)) {
    throw new Error(`${modelJsonPath} is not a tfjs graph model (no modelTopology/weightsManifest)`);
  }
  const directory = path.dirname(modelJsonPath);
  const shards = json.weightsManifest.flatMap((group) =>
    group.paths.map((shardPath) => readFileSync(path.join(directory, shardPath))),
  );
  const weights = Buffer.concat(shards);
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
    userDefinedMetadata: json.userDefinedMetadata,
    weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
    // A standalone copy: the Buffer may be a view into a larger pooled allocation.
    weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
  };
}

/** A tfjs IO router: `file://` model URLs load from disk; anything else is not ours. */
function fileModelRouter(url) {
  if (typeof url !== "string" || !url.startsWith("file://")) return null;
  return { load: async () => loadModelArtifacts(fileURLToPath(url)) };
}

async function createHuman({ humanWasmBuildPath, wasmDirectory, modelDirectory, minConfidence, maxFaces }) {
  const { Human } = require(humanWasmBuildPath);
  const off = { enabled: false };
  const human = new Human({
    backend: "wasm",
    // tfjs-backend-wasm reads the .wasm from this directory with fs in Node; trailing slash needed.
    wasmPath: `${wasmDirectory}${path.sep}`,
    wasmPlatformFetch: false,
    modelBasePath: `${require("node:url").pathToFileURL(modelDirectory).href}/`,
    debug: false,
    async: true,
    warmup: "none",
    cacheModels: false,
    // Frames are independent samples: never reuse a previous frame's result.
    cacheSensitivity: 0,
    filter: off,
    face: {
      enabled: true,
      detector: {
        rotation: false,
        maxDetected: maxFaces,
        skipFrames: 0,
        skipTime: 0,
        minConfidence,
        return: false,
      },
      mesh: off,
      iris: off,
      description: off,
      emotion: off,
      antispoof: off,
      liveness: off,
      attention: off,
      gear: off,
      ssrnet: off,
      mobilefacenet: off,
      insightface: off,
    },
    body: off,
    hand: off,
    object: off,
    gesture: off,
    segmentation: off,
  });
  human.tf.io.registerLoadRouter(fileModelRouter);
  await human.load();
  // Human logs a failed model load and carries on with no detector; fail loudly instead.
  if (!human.models.models.blazeface) throw new Error(`BlazeFace model did not load from ${modelDirectory}`);
  return human;
}

async function detect(human, { width, height, pixels }, minConfidence) {
  const data = new Uint8Array(pixels);
  if (data.length !== width * height * 3) {
    throw new Error(`Frame is ${data.length} bytes, expected ${width}×${height}×3`);
  }
  const tensor = human.tf.tensor3d(data, [height, width, 3], "int32");
  try {
    const result = await human.detect(tensor);
    return result.face
      .filter((face) => face.score >= minConfidence)
      .map((face) => {
        const [x, y, boxWidth, boxHeight] = face.boxRaw;
        return { x, y, width: boxWidth, height: boxHeight, score: face.score };
      });
  } finally {
    tensor.dispose();
  }
}

function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  const ready = createHuman(workerData);
  ready.then(
    () => port.postMessage({ ready: true }),
    (error) => port.postMessage({ ready: false, error: messageOf(error) }),
  );
  // One frame at a time: Human keeps per-call state.
  let queue = Promise.resolve();
  port.on("message", (request) => {
    queue = queue.then(async () => {
      try {
        const human = await ready;
        port.postMessage({ id: request.id, faces: await detect(human, request, workerData.minConfidence) });
      } catch (error) {
        port.postMessage({ id: request.id, error: messageOf(error) });
      }
    });
  });
}

module.exports = { fileModelRouter, loadModelArtifacts };
