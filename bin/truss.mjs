#!/usr/bin/env node
// `truss` entry point (package.json "bin"). Runs bin/truss.ts through tsx on the Node the
// project pins (node_modules/.bin/node, Node 24), whatever `node` started this shim.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pinnedNode = path.join(root, "node_modules", ".bin", "node");
const node = existsSync(pinnedNode) ? pinnedNode : process.execPath;
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
if (!existsSync(tsx)) {
  process.stderr.write("truss: dependencies are missing; run `npm install` in the project first.\n");
  process.exit(1);
}

const child = spawn(
  node,
  [
    tsx,
    "--tsconfig",
    path.join(root, "tsconfig.json"),
    path.join(root, "bin", "truss.ts"),
    ...process.argv.slice(2),
  ],
  {
    stdio: "inherit",
  },
);
// The child receives Ctrl-C from the terminal itself; forward other termination requests.
for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
