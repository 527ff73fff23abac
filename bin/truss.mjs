#!/usr/bin/env node
// `truss` entry point (package.json "bin"). Runs bin/truss.ts with tsx's loader on the Node the
// project pins (node_modules/.bin/node, Node 24), whatever `node` started this shim.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pinnedNode = path.join(root, "node_modules", ".bin", "node");
const node = existsSync(pinnedNode) ? pinnedNode : process.execPath;
const tsxLoader = path.join(root, "node_modules", "tsx", "dist", "loader.mjs");
if (!existsSync(tsxLoader)) {
  process.stderr.write("truss: dependencies are missing; run `npm install` in the project first.\n");
  process.exit(1);
}

// The loader in the CLI's own process, not the tsx command: that one sits between as a third
// process and, when the CLI has not acknowledged a signal within 30 ms, sends it again and then
// SIGKILLs the CLI, which ends a cancellation before its temporary files are removed.
const child = spawn(
  node,
  ["--import", pathToFileURL(tsxLoader).href, path.join(root, "bin", "truss.ts"), ...process.argv.slice(2)],
  {
    stdio: "inherit",
    env: { ...process.env, TSX_TSCONFIG_PATH: path.join(root, "tsconfig.json") },
  },
);
// A terminal's Ctrl+C reaches the whole foreground group, the CLI included; a supervisor's signal
// may reach this process alone. Either way the CLI is told (it takes a repeat calmly), and this
// process stays until the CLI has cleaned up and ended, so the prompt never returns early.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  process.stderr.write(`truss: could not start ${node}: ${error.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // End the same way, so a shell sees "interrupted" (status 130 for SIGINT) and stops a script.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  } else process.exit(code ?? 1);
});
