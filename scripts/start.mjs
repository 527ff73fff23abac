// `npm start` on a fresh clone: install what is missing, build if the sources changed, then
// run everything (dev/start.ts) on the project's pinned Node 24.
// Runs on the machine's own Node (≥ 20): plain JavaScript, no dependencies.
import { spawn } from "node:child_process";
import { isBuildStale } from "./build-freshness.mjs";
import { ensureInstalled, pinnedNode, projectRoot, runNpm } from "./ensure-installed.mjs";

ensureInstalled();

// Build when there is no build, or a source is newer than it.
if (isBuildStale(projectRoot)) runNpm(["run", "build"], "Building the web app");

// Services + web app + worker (dev/start.ts), on the pinned Node 24, as this process's direct
// child: a SIGINT or SIGTERM sent to `npm start` alone (a supervisor, `docker stop`) reaches it
// and stops everything. npm passes a signal to its script's process only, so the script `exec`s
// this one (a shell in between would die and leave everything running), and this one passes it
// on. Through `npm run serve` and the tsx CLI the signal stopped at npm and left the services
// running.
const child = spawn(pinnedNode, ["--import", "tsx", "dev/start.ts"], { cwd: projectRoot, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
