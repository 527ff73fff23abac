// `npm start` on a fresh clone: install what is missing, build if the sources changed, then
// run everything (dev/start.ts) on the project's pinned Node 24.
// Runs on the machine's own Node (≥ 20): plain JavaScript, no dependencies.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ensureInstalled, mtimeMs, pinnedNode, projectRoot, runNpm } from "./ensure-installed.mjs";

function newestMtimeMs(target) {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtimeMs(path.join(target, entry)));
  return newest;
}

ensureInstalled();

// Build when there is no build, or a source is newer than it.
const buildId = path.join(projectRoot, ".next", "BUILD_ID");
const newestSource = Math.max(
  ...["src", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "package-lock.json"].map((entry) =>
    newestMtimeMs(path.join(projectRoot, entry)),
  ),
);
if (!existsSync(buildId) || newestSource > mtimeMs(buildId)) runNpm(["run", "build"], "Building the web app");

// Services + web app + worker (dev/start.ts), on the pinned Node 24, as this process's direct
// child: a SIGINT or SIGTERM sent to `npm start` alone (a supervisor, `docker stop`) reaches it
// and stops everything. npm passes a signal to its script's process only, so the script `exec`s
// this one (a shell in between would die and leave everything running), and this one passes it
// on. Through `npm run serve` and the tsx CLI the signal stopped at npm and left the services
// running.
const child = spawn(pinnedNode, ["--import", "tsx", "dev/start.ts"], { cwd: projectRoot, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
