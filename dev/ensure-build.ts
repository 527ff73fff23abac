import { spawn } from "node:child_process";
import path from "node:path";
import { isBuildStale } from "../scripts/build-freshness.mjs";

/**
 * Runs `next build` when the app's build is missing or older than its sources (the same rule
 * as `npm start`): the browser tests and the upload benchmark run `next start` against it.
 */
export async function ensureBuild(options: {
  projectRoot: string;
  log: (line: string) => void;
}): Promise<void> {
  if (!isBuildStale(options.projectRoot)) return;
  options.log("building the app (next build)…");
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
  options.log(`build finished in ${Math.round((Date.now() - startedMs) / 1000)} s`);
}
