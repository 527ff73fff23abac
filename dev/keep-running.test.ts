import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { keepRunning } from "./keep-running";

const started: ChildProcess[] = [];

/** A Node process running `script`, killed after the test whatever happened. */
function startNode(script: string, stdio: "ignore" | "pipe" = "ignore"): ChildProcess {
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", stdio, "ignore"] });
  started.push(child);
  return child;
}

const startIdleProcess = () => startNode("setInterval(() => {}, 1000)");

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  await exited;
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterEach(() => {
  for (const child of started.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill();
});

describe("keepRunning", () => {
  it("says when the worker is killed and starts it again; stop() stops it for good", async () => {
    const lines: string[] = [];
    const kept = keepRunning({
      name: "worker",
      start: startIdleProcess,
      stopChild,
      log: (line) => lines.push(line),
      restartDelayMs: 50,
    });
    const first = kept.current;
    first.kill("SIGKILL");
    await waitUntil(() => kept.current !== first);
    expect(lines).toEqual(["[worker] was killed (SIGKILL); starting it again in 0.05 s"]);
    expect(kept.current.exitCode).toBeNull();

    const second = kept.current;
    await kept.stop();
    expect(second.signalCode).toBe("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(started.filter((child) => child.exitCode === null && child.signalCode === null)).toHaveLength(0);
    expect(started).toHaveLength(2);
  });

  it("leaves a process that keeps dying stopped, saying so", async () => {
    const lines: string[] = [];
    const kept = keepRunning({
      name: "worker",
      start: () => startNode("process.exit(3)"),
      stopChild,
      log: (line) => lines.push(line),
      restartDelayMs: 10,
      maxRestarts: 2,
    });
    await waitUntil(() => lines.length === 3);
    expect(lines).toEqual([
      "[worker] exited with code 3; starting it again in 0.01 s",
      "[worker] exited with code 3; starting it again in 0.01 s",
      "[worker] exited with code 3; it stopped 3 times within 60 s, so it stays stopped",
    ]);
    await kept.stop();
  });
});

describe("keepRunning, asked to stop", () => {
  it("does not start again a process that exited on its own SIGTERM (Ctrl+C reaches it first)", async () => {
    const lines: string[] = [];
    const kept = keepRunning({
      name: "worker",
      start: () =>
        startNode(
          "process.on('SIGTERM', () => process.exit(0)); console.log('ready'); setInterval(() => {}, 1000)",
          "pipe",
        ),
      stopChild,
      log: (line) => lines.push(line),
      restartDelayMs: 10,
    });
    const first = kept.current;
    // Its SIGTERM handler is in place once it says so.
    await new Promise((resolve) => first.stdout?.once("data", resolve));
    const exited = new Promise<void>((resolve) => first.once("exit", () => resolve()));
    first.kill("SIGTERM");
    await exited;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(kept.current).toBe(first);
    expect(lines).toEqual([]);
    await kept.stop();
  });
});
