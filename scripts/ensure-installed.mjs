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

export function runNpm(args, what, { hideEngineWarnings = false } = {}) {
  console.log(`› ${what}: npm ${args.join(" ")}`);
  const result = spawnSync(npmCommand, args, {
    cwd: projectRoot,
    stdio: ["inherit", "inherit", hideEngineWarnings ? "pipe" : "inherit"],
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (hideEngineWarnings) {
    const lines = (result.stderr ?? "").split("\n");
    const kept = lines.filter((line) => !line.startsWith("npm warn EBADENGINE"));
    if (kept.join("").trim() !== "") process.stderr.write(kept.join("\n"));
    if (kept.length < lines.length) {
      console.log(
        `  (npm's "Unsupported engine" warnings hidden: npm runs on this machine's Node ${process.versions.node} while it installs the project's own Node 24, which then runs everything)`,
      );
    }
  }
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
    runNpm(["ci", "--no-audit", "--no-fund"], "Installing dependencies", { hideEngineWarnings: true });
  }
}
