/**
 * Bundles the worker (src/worker/main.ts and everything it imports from src/) into one plain
 * JavaScript file, dist/worker/main.mjs, so a worker process runs no TypeScript transpiler: tsx's
 * loader, its transpiled sources and its esbuild service cost the worker 37–80 MB of its 600 MB
 * budget (measured with bench/worker-memory.bench.ts). Packages stay external, resolved from
 * node_modules at run time. Takes well under a second, so whatever starts a worker builds it
 * first (`startStack`, `npm run worker`, the integration tests' setup; `npm run build` too).
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const workerBundlePath = path.join(projectRoot, "dist", "worker", "main.mjs");

export async function buildWorker(): Promise<void> {
  const directory = path.dirname(workerBundlePath);
  await mkdir(directory, { recursive: true });
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: ["src/worker/main.ts"],
    outfile: workerBundlePath,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node24",
    packages: "external",
    // Beside the bundle, for NODE_OPTIONS=--enable-source-maps (not loaded by default: +11 MB).
    sourcemap: "linked",
    logLevel: "warning",
    write: false,
  });
  // The face detector's thread is started from a file beside the module that loads it.
  const files = [
    ...result.outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
    {
      path: path.join(directory, "face-detector-worker.cjs"),
      contents: await readFile(path.join(projectRoot, "src", "engine", "faces", "face-detector-worker.cjs")),
    },
  ];
  // Each file replaced in one rename: a worker starting meanwhile reads the old build or the new.
  await Promise.all(
    files.map(async (file) => {
      const temporary = `${file.path}.${process.pid}.tmp`;
      await writeFile(temporary, file.contents);
      await rename(temporary, file.path);
    }),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildWorker();
