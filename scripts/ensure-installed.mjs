// Shared by `npm start` and `npm test`: install dependencies when node_modules is missing or
// older than the lockfile. Runs on the machine's own Node (≥ 20): plain JavaScript only.
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const npmCommand = process.platform === "win32" ? "npm.cmd" : "npm";

export function mtimeMs(file) {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

export function runNpm(args, what) {
  console.log(`› ${what}: npm ${args.join(" ")}`);
  const result = spawnSync(npmCommand, args, { cwd: projectRoot, stdio: "inherit" });
  if (result.status !== 0) {
    console.error(`\n${what} failed (exit ${result.status}). See the output above.`);
    process.exit(result.status ?? 1);
  }
}

/** The project's own Node 24 (the `node` devDependency), whatever Node runs this script. */
export const pinnedNode = path.join(projectRoot, "node_modules", ".bin", "node");

export function ensureInstalled() {
  const installedMarker = path.join(projectRoot, "node_modules", ".package-lock.json");
  const lockfile = path.join(projectRoot, "package-lock.json");
  if (
    !existsSync(installedMarker) ||
    !existsSync(pinnedNode) ||
    mtimeMs(installedMarker) < mtimeMs(lockfile)
  ) {
    runNpm(["ci", "--no-audit", "--no-fund"], "Installing dependencies");
  }
}
