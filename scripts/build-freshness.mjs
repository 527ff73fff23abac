// Whether the web app's production build (`.next`) is older than its sources. `npm start`, the
// browser tests and the upload benchmark all rebuild it then, by this one rule. Plain
// JavaScript without dependencies: `npm start` reads it on the machine's own Node.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { mtimeMs } from "./ensure-installed.mjs";

/** Inputs of `next build`: a build older than any of them is stale. */
const BUILD_INPUTS = [
  "src",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
];

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

/** True when `.next/BUILD_ID` is missing or older than the newest input. */
export function isBuildStale(projectRoot) {
  // 0 when there is no build.
  const builtAtMs = mtimeMs(path.join(projectRoot, ".next", "BUILD_ID"));
  return (
    builtAtMs === 0 ||
    Math.max(...BUILD_INPUTS.map((input) => newestMtimeMs(path.join(projectRoot, input)))) > builtAtMs
  );
}
