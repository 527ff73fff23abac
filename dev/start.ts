import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { type Config, ConfigError, parseConfig } from "@/config";
import { buildWorker } from "./build-worker";
import { type KeptRunning, keepRunning } from "./keep-running";
import { type EmbeddedServices, ServiceStartError, startEmbeddedServices } from "./services";

/**
 * Starts Truss on one machine: the embedded services (unless TRUSS_SERVICES=aws), the web app
 * (`next start`, or `next dev` with --dev) and one worker, as child processes sharing one
 * environment. Used by `npm start`, `npm run dev`, the browser tests and the benchmarks.
 */

export type Stack = { appUrl: string; appPid: number; config: Config; stop: () => Promise<void> };

type Log = (message: string) => void;

const projectRoot = path.resolve(import.meta.dirname, "..");
const binPath = (name: string) => path.join(projectRoot, "node_modules", ".bin", name);

export async function startStack(options: {
  environment: Record<string, string | undefined>;
  inMemory: boolean;
  dev?: boolean;
  withWorker?: boolean;
  log?: Log;
}): Promise<Stack> {
  const log = options.log ?? ((message: string) => console.log(message));
  const config = parseConfig(options.environment);
  const environment = {
    ...options.environment,
    NODE_ENV: options.dev ? "development" : "production",
    // Telemetry would try the network on every start; this machine has none to spare.
    NEXT_TELEMETRY_DISABLED: "1",
  };

  let services: EmbeddedServices | undefined;
  const children: ChildProcess[] = [];
  let worker: KeptRunning | undefined;
  const stop = async () => {
    await Promise.all([...children.map((child) => stopChild(child)), worker?.stop()]);
    children.length = 0;
    worker = undefined;
    await services?.stop();
    services = undefined;
  };

  try {
    if (config.services === "embedded") {
      services = await startEmbeddedServices({ config, inMemory: options.inMemory, log });
    }
    const web = spawnChild(
      "web",
      binPath("next"),
      [options.dev ? "dev" : "start", "--port", String(config.port), "--hostname", "127.0.0.1"],
      environment,
      log,
    );
    children.push(web);
    if (options.withWorker !== false) {
      if (!options.dev) await buildWorker();
      const workerArgs = options.dev ? DEV_WORKER_NODE_ARGS : WORKER_NODE_ARGS;
      // Started again should it die (out of memory, a crash): uploads would otherwise wait forever.
      worker = keepRunning({
        name: "worker",
        start: () => spawnChild("worker", process.execPath, workerArgs, environment, log, false),
        stopChild,
        log,
      });
    }
    const healthUrl = `http://127.0.0.1:${config.port}/api/health`;
    await waitForHealthy(healthUrl, web, options.dev ? 180_000 : 60_000);
    return { appUrl: config.appUrl, appPid: web.pid ?? 0, config, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The worker runs as one Node process from its prebuilt bundle (dev/build-worker.ts), as
 * `npm run worker` does. Its memory budget is tight — at its peak it holds the face detector
 * beside a 1080×1920 encoder — so no TypeScript transpiler in the process (tsx's loader and
 * esbuild service: 37–80 MB), no parent process that only relays signals, and a 4 MB V8 young
 * generation instead of up to 32 MB (~18 MB less resident; the worker's own JavaScript work is
 * light). `npm run dev` runs the sources through tsx instead, so edits apply on restart.
 */
const WORKER_MEMORY_ARGS = ["--max-semi-space-size=4"];
// Not --enable-source-maps: it parses the bundle's map at start-up (+11 MB resident, measured).
// The bundle is unminified, with each module's source path in a comment; to map traces to the
// TypeScript, set NODE_OPTIONS=--enable-source-maps.
export const WORKER_NODE_ARGS = [...WORKER_MEMORY_ARGS, "dist/worker/main.mjs"];
const DEV_WORKER_NODE_ARGS = [...WORKER_MEMORY_ARGS, "--import", "tsx", "src/worker/main.ts"];

function spawnChild(
  name: string,
  command: string,
  args: string[],
  environment: Record<string, string | undefined>,
  log: Log,
  reportExit = true,
): ChildProcess {
  const child = spawn(command, args, {
    cwd: projectRoot,
    env: environment as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on("line", (line) => log(`[${name}] ${line}`));
  }
  child.once("exit", (code, signal) => {
    if (!reportExit) return;
    // 130 and 143: the child's own exit on the SIGINT/SIGTERM it was sent.
    if (code !== 0 && code !== 130 && code !== 143 && signal === null)
      log(`[${name}] exited with code ${code}`);
  });
  return child;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  // The worker finishes or releases its jobs within its grace period; then it must go.
  const killTimer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(killTimer);
}

async function waitForHealthy(url: string, web: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastProblem = "no answer";
  while (Date.now() < deadline) {
    if (web.exitCode !== null)
      throw new ServiceStartError(`The web app exited during start-up (code ${web.exitCode}).`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return;
      lastProblem = `${response.status} ${await response.text()}`;
    } catch (error) {
      lastProblem = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new ServiceStartError(
    `The web app did not become healthy within ${timeoutMs / 1000} s: ${lastProblem}`,
  );
}

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  let stack: Stack;
  try {
    stack = await startStack({ environment: process.env, inMemory: false, dev });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ServiceStartError) {
      console.error(`\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  console.log(`\n  Truss is running at ${stack.appUrl}  (Ctrl+C to stop)\n`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    console.log("\nStopping Truss…");
    await stack.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown());
  process.on("SIGTERM", () => void shutdown());
  // A closed terminal: the database runs in its own process group and is not told otherwise.
  process.on("SIGHUP", () => void shutdown());
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await main();
}
