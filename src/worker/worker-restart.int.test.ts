import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIP_RANK_SK_PREFIX, CLIP_SK_PREFIX, creatorPk } from "@/db/keys";
import { type Clip, listClipsByVideo } from "@/db/repos/clip-repo";
import { findVideoById, type Video } from "@/db/repos/video-repo";
import { enqueueJob } from "@/queue/enqueue-job";
import { tableOf } from "@/server/runtime";
import { provisionResources } from "../../dev/provision";
import { WORKER_NODE_ARGS } from "../../dev/start";
import { testRuntime } from "../../dev/test/runtime";
import { createQueuedTestVideo } from "./testing/create-queued-test-video";

/**
 * A real worker process (its bundle, `node dist/worker/main.mjs`) is killed with SIGKILL mid-analysis, a
 * second one mid-render, and a third finishes the video: it ends READY, with every clip once.
 * The workers use their own queue, so jobs of other test files never reach them, and a short
 * visibility timeout, so a dead worker's message comes back within seconds.
 */
const projectRoot = path.resolve(import.meta.dirname, "../..");
const queueName = `truss-restart-${process.pid}`;
const deadLetterQueueName = `truss-restart-dlq-${process.pid}`;
const VISIBILITY_TIMEOUT_SECONDS = 6;

const runtime = testRuntime({ TRUSS_QUEUE_NAME: queueName, TRUSS_DLQ_NAME: deadLetterQueueName });
const table = tableOf(runtime);

type Worker = { child: ChildProcess; exited: Promise<void>; output: string[] };
const workers: Worker[] = [];
let workerTmpDir: string;

function startWorker(name: string): Worker {
  const output: string[] = [];
  // Started exactly as `npm start` starts its worker.
  const child = spawn(process.execPath, WORKER_NODE_ARGS, {
    cwd: projectRoot,
    env: {
      ...process.env,
      TRUSS_QUEUE_NAME: queueName,
      TRUSS_DLQ_NAME: deadLetterQueueName,
      WORKER_VISIBILITY_TIMEOUT_SECONDS: String(VISIBILITY_TIMEOUT_SECONDS),
      // Temp files of a killed worker stay behind (nothing runs to remove them): keep them here.
      TMPDIR: workerTmpDir,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so a kill takes its ffmpeg children with it, as a crash of the
    // machine or container would.
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on("line", (line) => output.push(`[${name}] ${line}`));
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const worker = { child, exited, output };
  workers.push(worker);
  return worker;
}

async function killHard(worker: Worker): Promise<void> {
  if (worker.child.pid !== undefined && worker.child.exitCode === null && worker.child.signalCode === null) {
    process.kill(-worker.child.pid, "SIGKILL");
  }
  await worker.exited;
}

async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      const logs = workers
        .flatMap((worker) => worker.output)
        .slice(-40)
        .join("\n");
      throw new Error(`Timed out waiting for ${what}; last value ${JSON.stringify(value)}\n${logs}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function countItems(creatorId: string, prefix: string): Promise<number> {
  const output = await table.documentClient.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :prefix)",
      ExpressionAttributeValues: { ":pk": creatorPk(creatorId), ":prefix": prefix },
      Select: "COUNT",
    }),
  );
  return output.Count ?? 0;
}

describe("worker killed mid-job", () => {
  beforeAll(async () => {
    workerTmpDir = await mkdtemp(path.join(os.tmpdir(), "truss-restart-"));
    const { clients, config } = runtime;
    await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  });

  afterAll(async () => {
    await Promise.all(workers.map(killHard));
    await rm(workerTmpDir, { recursive: true, force: true });
  });

  it("ends READY with no duplicate clips after SIGKILL mid-analysis and mid-render", async () => {
    // Two planted events, two clips: the second worker is killed between their renders.
    const { video } = await createQueuedTestVideo({ runtime, durationSeconds: 90 });
    const { creatorId, videoId } = video;
    const readVideo = async () =>
      (await findVideoById({ table, creatorId, videoId, consistent: true })) as Video;
    const readClips = () => listClipsByVideo({ table, creatorId, videoId, consistent: true });
    await enqueueJob(runtime, "analyze-video", { creatorId, videoId });

    // 1. Killed while analysing: the video is ANALYZING and has no clips yet.
    const first = startWorker("worker-1");
    await waitFor("analysis to start", readVideo, (current) => current.status === "ANALYZING", 60_000);
    await killHard(first);
    expect((await readVideo()).status).toBe("ANALYZING");
    expect(await readClips()).toEqual([]);

    // 2. A new worker picks the job up once its visibility runs out, and is killed mid-render:
    //    at least one clip is rendered, at least one is not.
    const second = startWorker("worker-2");
    const partlyRendered = await waitFor(
      "a first clip to be rendered",
      readClips,
      (clips) => clips.some((clip) => clip.status === "READY"),
      120_000,
    );
    await killHard(second);
    const atKill = await readClips();
    expect((await readVideo()).status).toBe("RENDERING");
    expect(atKill.some((clip) => clip.status !== "READY")).toBe(true);
    const renderedBeforeKill = new Map(
      atKill.filter((clip) => clip.status === "READY").map((clip) => [clip.clipId, clip.render]),
    );
    expect(renderedBeforeKill.size).toBeGreaterThanOrEqual(
      partlyRendered.filter((clip) => clip.status === "READY").length,
    );

    // 3. A third worker finishes the video.
    // The killed workers' files are still there; the next worker removes them as it starts.
    const leftoversOfKilledWorkers = await readdir(workerTmpDir);
    expect(leftoversOfKilledWorkers.length).toBeGreaterThan(0);
    const third = startWorker("worker-3");
    const ready = await waitFor(
      "the video to be READY",
      readVideo,
      (current) => current.status === "READY",
      120_000,
    );
    third.child.kill("SIGTERM");
    await third.exited;

    const clips: Clip[] = await readClips();
    expect(ready.clipCount).toBe(clips.length);
    expect(new Set(clips.map((clip) => clip.clipId)).size).toBe(clips.length);
    expect(clips.map((clip) => clip.ordinal)).toEqual(clips.map((_, index) => index));
    expect(await countItems(creatorId, CLIP_SK_PREFIX)).toBe(clips.length);
    expect(await countItems(creatorId, CLIP_RANK_SK_PREFIX)).toBe(clips.length);
    for (const clip of clips) {
      expect(clip.status).toBe("READY");
      // A clip finished before the crash was not rendered again.
      if (renderedBeforeKill.has(clip.clipId))
        expect(clip.render).toEqual(renderedBeforeKill.get(clip.clipId));
    }
    // The bundled worker found everything it loads beside it or in node_modules: the face
    // detector's thread too (without it, renders go on following motion only, and say so).
    const workerOutput = workers.flatMap((worker) => worker.output).join("\n");
    expect(workerOutput).toMatch(/render: subject from/);
    expect(workerOutput).not.toMatch(/face detection unavailable/);
    // The finishing worker removed the killed workers' files, and its own as it stopped.
    expect(await readdir(workerTmpDir)).toEqual([]);
  }, 300_000);
});
