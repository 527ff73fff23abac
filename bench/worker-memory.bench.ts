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
import { createVideo, findVideoById, updateVideoStatus } from "@/db/repos/video-repo";
import { createId } from "@/lib/ids";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { enqueueJob } from "@/queue/enqueue-job";
import { getRuntime, tableOf } from "@/server/runtime";
import { sourceObjectKey } from "@/storage/object-keys";
import { uploadFile } from "@/worker/jobs/clip-pipeline/object-io";

const sourceFlag = process.argv.indexOf("--source");
const sourcePath = sourceFlag >= 0 ? process.argv[sourceFlag + 1] : undefined;
if (!sourcePath) throw new Error("Usage: npm run bench:worker-memory -- --source <video file>");

const rssKb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
const childrenOf = (pid: number): number[] =>
  readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  );

/** The running worker: the process whose command line runs src/worker/main.ts. */
function findWorkerPid(): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const commandLine = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (commandLine.some((arg) => arg.endsWith(path.join("src", "worker", "main.ts"))))
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
const creatorId = createId("creator");
const videoId = createId("video");
const probe = await probeMedia({ binaries: resolveMediaBinaries(), input: sourcePath });
const sourceKey = sourceObjectKey(creatorId, videoId);
console.error(
  `[bench] worker pid ${workerPid}, idle RSS ${Math.round(rssKb(workerPid) / 1024)} MB; storing the source…`,
);
await uploadFile({
  s3: runtime.clients.s3,
  bucket: runtime.config.aws.bucketName,
  key: sourceKey,
  filePath: sourcePath,
  contentType: "video/mp4",
});
await createVideo({
  table,
  video: {
    creatorId,
    videoId,
    origin: "upload",
    filename: path.basename(sourcePath),
    declaredContentType: "video/mp4",
    declaredSizeBytes: probe.sizeBytes,
    importUrl: null,
    sourceKey,
    uploadKind: "single",
    uploadId: null,
    partSizeBytes: null,
    partCount: null,
  },
});
await updateVideoStatus({ table, creatorId, videoId, from: ["UPLOADING"], to: "UPLOADED" });
await updateVideoStatus({
  table,
  creatorId,
  videoId,
  from: ["UPLOADED"],
  to: "QUEUED",
  set: { probe, sourceSizeBytes: probe.sizeBytes, sourceContentType: "video/mp4" },
});

let peak = { totalKb: 0, workerKb: 0, childrenKb: [] as number[] };
const sampler = setInterval(() => {
  try {
    const workerKb = rssKb(workerPid);
    const childrenKb = childrenOf(workerPid).map((pid) => {
      try {
        return rssKb(pid);
      } catch {
        return 0;
      }
    });
    const totalKb = workerKb + childrenKb.reduce((sum, kb) => sum + kb, 0);
    if (totalKb > peak.totalKb) peak = { totalKb, workerKb, childrenKb };
  } catch {
    // The worker exited: the loop below reports the video's state.
  }
}, 150);

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
clearInterval(sampler);
const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;
console.log(
  `${(probe.durationSeconds / 60).toFixed(0)}-minute ${probe.width}×${probe.height} source: ${status} after ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
console.log(
  `worker peak RSS (process tree) ${mb(peak.totalKb)} = worker ${mb(peak.workerKb)} + children [${peak.childrenKb.map(mb).join(", ")}]`,
);
process.exit(0);
