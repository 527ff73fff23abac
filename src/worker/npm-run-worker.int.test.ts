import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { provisionResources } from "../../dev/provision";
import { testRuntime } from "../../dev/test/runtime";

/**
 * A supervisor stops a worker by sending SIGTERM to the process it started: here `npm run
 * worker`. npm hands the signal to its script's process only; were that a shell running node,
 * the shell would die and leave the worker polling, orphaned. The scripts `exec` node instead.
 */
const projectRoot = path.resolve(import.meta.dirname, "../..");
const queueName = `truss-npm-worker-${process.pid}`;
const deadLetterQueueName = `truss-npm-worker-dlq-${process.pid}`;
const runtime = testRuntime({ TRUSS_QUEUE_NAME: queueName, TRUSS_DLQ_NAME: deadLetterQueueName });

let groupToKill: number | undefined;

describe("npm run worker", () => {
  beforeAll(async () => {
    const { clients, config } = runtime;
    await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  });

  afterAll(() => {
    // Whatever the outcome, nothing of this test keeps running.
    if (groupToKill !== undefined) {
      try {
        process.kill(-groupToKill, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
  });

  it("finishes and exits when npm gets SIGTERM", async () => {
    const npm = spawn("npm", ["run", "--silent", "worker"], {
      cwd: projectRoot,
      env: { ...process.env, TRUSS_QUEUE_NAME: queueName, TRUSS_DLQ_NAME: deadLetterQueueName },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    groupToKill = npm.pid;
    const output: string[] = [];
    const exited = new Promise<void>((resolve) => npm.once("exit", () => resolve()));
    const polling = new Promise<void>((resolve) => {
      for (const stream of [npm.stdout, npm.stderr]) {
        createInterface({ input: stream }).on("line", (line) => {
          output.push(line);
          if (line.startsWith(`polling ${queueName}`)) resolve();
        });
      }
    });
    await Promise.race([polling, exited]);
    expect(output.join("\n")).toContain(`polling ${queueName}`);

    npm.kill("SIGTERM");
    // npm waits for its script's process, then ends itself by the same signal.
    await exited;
    expect(output.join("\n")).toContain("SIGTERM: finishing running jobs, then exiting");
    // The group empties: the worker did not outlive npm (tsx's esbuild service, when the
    // transform cache was cold, follows within moments as its pipe closes).
    const groupAlive = () => {
      try {
        process.kill(-(npm.pid as number), 0);
        return true;
      } catch {
        return false;
      }
    };
    const deadline = Date.now() + 5_000;
    while (groupAlive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(groupAlive()).toBe(false);
  }, 60_000);
});
