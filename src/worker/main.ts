import { getConfig } from "@/config";
import { enqueueJob } from "@/queue/enqueue-job";
import { createRuntime } from "@/server/runtime";
import { startConsumer } from "./consumer";
import { JOB_HANDLERS } from "./handlers";
import { claimWorkerTempRoot } from "./worker-temp-root";

/**
 * Worker entrypoint (`npm run worker`; `npm start` runs one beside the web app). Scale out by
 * running more of these against the same queue.
 */
const SWEEP_INTERVAL_MS = 5 * 60_000;

async function main(): Promise<void> {
  const config = getConfig();
  const runtime = createRuntime(config);
  const log = (message: string, details?: Record<string, unknown>) => {
    const suffix = details && Object.keys(details).length > 0 ? ` ${JSON.stringify(details)}` : "";
    console.log(`${message}${suffix}`);
  };
  const tempRoot = await claimWorkerTempRoot(log);
  const consumer = startConsumer({
    runtime,
    handlers: JOB_HANDLERS,
    concurrency: config.worker.concurrency,
    log,
    visibilityTimeoutSeconds: config.worker.visibilityTimeoutSeconds,
    // Extend well before the visibility runs out, so a slow heartbeat never loses the job.
    heartbeatMs: (config.worker.visibilityTimeoutSeconds * 1000) / 3,
  });
  // The embedded queue can lose messages on a crash, and uploads can be abandoned: a periodic
  // sweep re-queues stuck videos and deletes stale uploads. Duplicate sweeps are harmless.
  const enqueueSweep = () =>
    enqueueJob(runtime, "sweep-videos", {}).catch((error) =>
      log("could not enqueue sweep", { error: String(error) }),
    );
  let sweepTimer: NodeJS.Timeout | undefined;

  // Handlers first: a SIGTERM during startup must stop the consumer too, not kill the process.
  let stopping = false;
  const shutdown = async (signalName: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signalName}: finishing running jobs, then exiting`);
    clearInterval(sweepTimer);
    await consumer.stop();
    await tempRoot.release();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
  log(`polling ${config.aws.queueName} with ${config.worker.concurrency} slots`);

  await enqueueSweep();
  if (!stopping) sweepTimer = setInterval(enqueueSweep, SWEEP_INTERVAL_MS);
  await consumer.done;
  // The loop ends only on stop. Should it end otherwise, exit, so whatever runs the worker (the
  // start script's supervisor, a container's restart policy) starts a fresh one: a process kept
  // alive by the sweep timer alone would take no job again.
  if (!stopping) {
    log("worker loop ended without a stop; exiting");
    process.exit(1);
  }
}

main().catch((error) => {
  console.error("worker failed to start:", error instanceof Error ? error.message : error);
  process.exit(1);
});
