/**
 * The real worker's peak memory: `npm run bench:worker-memory -- --source <video>` while
 * `npm start` runs (same configuration). It stores the file as a new video's source, puts the
 * video through the running worker's queue (download, analysis, renders) and samples the
 * worker's process tree (the worker and every child, VmRSS summed) every 150 ms until the video
 * is READY or FAILED. Use the pipeline bench's cached sources (`--cache`, `--minutes 120`) for a
 * 2-hour file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { findVideoById } from "@/db/repos/video-repo";
import { enqueueJob } from "@/queue/enqueue-job";
import { getRuntime, tableOf } from "@/server/runtime";
import { storeQueuedVideo } from "@/worker/testing/create-queued-test-video";
import { PeakMemory } from "./process-memory";

const sourceFlag = process.argv.indexOf("--source");
const sourcePath = sourceFlag >= 0 ? process.argv[sourceFlag + 1] : undefined;
if (!sourcePath) throw new Error("Usage: npm run bench:worker-memory -- --source <video file>");

/** What a worker's command line runs: its bundle, or (`npm run dev`) its source. */
const WORKER_ENTRY_POINTS = [path.join("dist", "worker", "main.mjs"), path.join("src", "worker", "main.ts")];

/** The running worker: the process whose command line runs one of its entry points. */
function findWorkerPid(): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (commandLine.some((arg) => WORKER_ENTRY_POINTS.some((entryPoint) => arg.endsWith(entryPoint))))
        return Number(entry);
    } catch {
      // The process exited while the list was read.
    }
  }
  throw new Error("No running worker found: start Truss with `npm start` first.");
}

const workerPid = findWorkerPid();
const runtime = getRuntime();
const table = tableOf(runtime);
console.error(`[bench] worker pid ${workerPid}; storing the source…`);
const { creatorId, videoId, probe } = await storeQueuedVideo({ runtime, filePath: sourcePath });

const memory = new PeakMemory(workerPid);
memory.start();
const started = performance.now();
await enqueueJob(runtime, "analyze-video", { creatorId, videoId });
let status = "QUEUED";
while (status !== "READY" && status !== "FAILED") {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const video = await findVideoById({ table, creatorId, videoId, consistent: true });
  if (!video) throw new Error("The video disappeared");
  if (video.status !== status) console.error(`[bench] ${video.status} ${video.stage ?? ""}`);
  status = video.status;
}
memory.stop();
const peak = memory.treePeakSample;
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
const minutes = ((probe?.durationSeconds ?? 0) / 60).toFixed(0);
console.log(
  `${minutes}-minute ${probe?.width}×${probe?.height} source: ${status} after ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
console.log(
  `worker peak RSS (process tree) ${mb(peak.totalKb)} = worker ${mb(peak.rootKb)} + children [${peak.childrenKb.map(mb).join(", ")}]`,
);
process.exit(0);
