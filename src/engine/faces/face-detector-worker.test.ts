import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
// The worker script is plain CommonJS (it runs in a worker thread); outside a worker it only
// exports its model loader.
const { fileModelRouter, loadModelArtifacts } = require("./face-detector-worker.cjs") as {
  fileModelRouter: (
    url: unknown,
  ) => { load: () => Promise<{ format: string; weightSpecs: unknown[]; weightData: ArrayBuffer }> } | null;
  loadModelArtifacts: (modelJsonPath: string) => unknown;
};
const blazefaceJson = path.join(
  path.dirname(require.resolve("@vladmandic/human")),
  "..",
  "models",
  "blazeface.json",
);

const BYTES_PER_DTYPE: Record<string, number> = { float32: 4, int32: 4, bool: 1 };

describe("fileModelRouter", () => {
  it("routes only file:// URLs", () => {
    expect(fileModelRouter("https://example.com/model.json")).toBeNull();
    expect(fileModelRouter(["file:///a.json"])).toBeNull();
    expect(fileModelRouter(pathToFileURL(blazefaceJson).href)).not.toBeNull();
  });

  it("loads the shipped BlazeFace model with all its weight bytes", async () => {
    const artifacts = await fileModelRouter(pathToFileURL(blazefaceJson).href)!.load();
    expect(artifacts.format).toBe("graph-model");
    const specs = artifacts.weightSpecs as {
      shape: number[];
      dtype: string;
      quantization?: { dtype: string };
    }[];
    const expectedBytes = specs.reduce((sum, spec) => {
      const dtype = spec.quantization?.dtype ?? spec.dtype;
      const bytes =
        dtype === "uint8" || dtype === "int8" ? 1 : dtype.endsWith("16") ? 2 : (BYTES_PER_DTYPE[dtype] ?? 4);
      return sum + spec.shape.reduce((product, size) => product * size, 1) * bytes;
    }, 0);
    expect(specs.length).toBeGreaterThan(50);
    expect(artifacts.weightData.byteLength).toBe(expectedBytes);
  });

  it("rejects a JSON file that is not a graph model", async () => {
    const directory = await mkdtemp(path.join(os.tmpdir(), "truss-model-test-"));
    try {
      const notAModel = path.join(directory, "model.json");
      await writeFile(notAModel, JSON.stringify({ hello: "world" }));
      expect(() => loadModelArtifacts(notAModel)).toThrow(/not a tfjs graph model/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
