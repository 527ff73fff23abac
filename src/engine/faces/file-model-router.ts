import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The subset of tfjs's model artifacts a graph model needs (see tf.io.ModelArtifacts). */
export type FileModelArtifacts = {
  modelTopology: unknown;
  format?: string;
  generatedBy?: string;
  convertedBy?: string | null;
  userDefinedMetadata?: Record<string, unknown>;
  weightSpecs: unknown[];
  weightData: ArrayBuffer;
};

type ModelJson = {
  modelTopology: unknown;
  format?: string;
  generatedBy?: string;
  convertedBy?: string | null;
  userDefinedMetadata?: Record<string, unknown>;
  weightsManifest: { paths: string[]; weights: unknown[] }[];
};

/**
 * A tfjs IO router for `file://` model URLs. tfjs reads local models only through
 * `@tensorflow/tfjs-node`, which cannot be installed offline; this reads the model JSON and
 * its weight shards from disk instead, so nothing is fetched at run time. Register it with
 * `tf.io.registerLoadRouter`.
 */
export function fileModelRouter(url: string | string[]): { load: () => Promise<FileModelArtifacts> } | null {
  if (typeof url !== "string" || !url.startsWith("file://")) return null;
  return { load: () => loadModelArtifacts(fileURLToPath(url)) };
}

export async function loadModelArtifacts(modelJsonPath: string): Promise<FileModelArtifacts> {
  const json = JSON.parse(await readFile(modelJsonPath, "utf8")) as ModelJson;
  if (!json.modelTopology || !Array.isArray(json.weightsManifest)) {
    throw new Error(`${modelJsonPath} is not a tfjs graph model (no modelTopology/weightsManifest)`);
  }
  const directory = path.dirname(modelJsonPath);
  const shards: Buffer[] = [];
  for (const group of json.weightsManifest) {
    for (const shardPath of group.paths) shards.push(await readFile(path.join(directory, shardPath)));
  }
  const weights = Buffer.concat(shards);
  return {
    modelTopology: json.modelTopology,
    format: json.format,
    generatedBy: json.generatedBy,
    convertedBy: json.convertedBy,
    userDefinedMetadata: json.userDefinedMetadata,
    weightSpecs: json.weightsManifest.flatMap((group) => group.weights),
    // A standalone copy: the Buffer may be a view into a larger pooled allocation.
    weightData: weights.buffer.slice(
      weights.byteOffset,
      weights.byteOffset + weights.byteLength,
    ) as ArrayBuffer,
  };
}
