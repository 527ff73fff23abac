import { spawn } from "node:child_process";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

/** Inputs of `next build`: a build older than any of them is rebuilt. */
const BUILD_INPUTS = [
  "src",
  "public",
  "next.config.ts",
  "package.json",
  "postcss.config.mjs",
  "tsconfig.json",
];

async function newestMtimeMs(entry: string): Promise<number> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(entry);
  } catch {
    return 0;
  }
  if (!info.isDirectory()) return info.mtimeMs;
  const children = await readdir(entry);
  const times = await Promise.all(children.map((child) => newestMtimeMs(path.join(entry, child))));
  return Math.max(info.mtimeMs, ...times);
}

/** True when `.next/BUILD_ID` is missing or older than the newest source file. */
export async function isBuildStale(projectRoot: string): Promise<boolean> {
  let builtAtMs: number;
  try {
    builtAtMs = (await stat(path.join(projectRoot, ".next", "BUILD_ID"))).mtimeMs;
  } catch {
    return true;
  }
  const sourcesMs = await Promise.all(
    BUILD_INPUTS.map((input) => newestMtimeMs(path.join(projectRoot, input))),
  );
  return Math.max(...sourcesMs) > builtAtMs;
}

/** Runs `next build` when the existing build is missing or stale. */
export async function ensureBuild(options: {
  projectRoot: string;
  log: (line: string) => void;
}): Promise<void> {
  if (!(await isBuildStale(options.projectRoot))) return;
  options.log("[e2e] building the app (next build)…");
  const startedMs = Date.now();
  const output: string[] = [];
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(path.join(options.projectRoot, "node_modules", ".bin", "next"), ["build"], {
      cwd: options.projectRoot,
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (exitCode !== 0) {
    throw new Error(`next build failed (exit ${exitCode}):\n${output.join("").slice(-4000)}`);
  }
  options.log(`[e2e] build finished in ${Math.round((Date.now() - startedMs) / 1000)} s`);
}
