// `npm start` on a fresh clone: install what is missing, build if the sources changed, then
// run everything (dev/start.ts) on the project's pinned Node 24.
//
// This file runs on whatever Node the machine has (≥ 20): plain JavaScript, no dependencies.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

function run(args, what) {
  console.log(`› ${what}: npm ${args.join(" ")}`);
  const result = spawnSync(npm, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\n${what} failed (exit ${result.status}). See the output above.`);
    process.exit(result.status ?? 1);
  }
}

function mtime(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function newestMtime(target) {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) {
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

// 1. Dependencies: install when node_modules is missing or older than the lockfile.
const installedMarker = path.join(root, "node_modules", ".package-lock.json");
const pinnedNode = path.join(root, "node_modules", ".bin", "node");
if (
  !existsSync(installedMarker) ||
  !existsSync(pinnedNode) ||
  mtime(installedMarker) < mtime(path.join(root, "package-lock.json"))
) {
  run(["ci", "--no-audit", "--no-fund"], "Installing dependencies");
}

// 2. Build when there is no build, or a source is newer than it.
const buildId = path.join(root, ".next", "BUILD_ID");
const sources = ["src", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "package-lock.json"].map(
  (entry) => newestMtime(path.join(root, entry)),
);
if (!existsSync(buildId) || Math.max(...sources) > mtime(buildId)) {
  run(["run", "build"], "Building the web app");
}

// 3. Run services + web app + worker on Node 24 (npm puts node_modules/.bin first on PATH).
const child = spawn(npm, ["run", "--silent", "serve"], { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
