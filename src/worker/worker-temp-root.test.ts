import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimWorkerTempRoot } from "./worker-temp-root";

const savedTmpdir = process.env.TMPDIR;
let systemTmp: string;
const children: ChildProcess[] = [];

beforeEach(async () => {
  systemTmp = await mkdtemp(path.join(os.tmpdir(), "truss-temp-root-test-"));
  process.env.TMPDIR = systemTmp;
});

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  process.env.TMPDIR = savedTmpdir;
  await rm(systemTmp, { recursive: true, force: true });
});

/** The pid of a process that has exited: a worker killed outright. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid;
}

describe.runIf(existsSync("/proc/self/cmdline"))("claimWorkerTempRoot", () => {
  it("stops the ffmpeg a killed worker left running in its temp root, and removes the root", async () => {
    const deadRoot = path.join(systemTmp, `truss-worker-${deadPid()}`);
    await mkdir(path.join(deadRoot, "truss-analyze-x"), { recursive: true });
    // Stands in for the orphaned ffmpeg: its arguments name files in the dead worker's root.
    const orphan = spawn(
      process.execPath,
      ["-e", "setInterval(() => {}, 1000)", path.join(deadRoot, "truss-analyze-x", "source")],
      { stdio: "ignore" },
    );
    // Another worker's process (its root's pid alive) is left alone.
    const bystander = spawn(
      process.execPath,
      ["-e", "setInterval(() => {}, 1000)", path.join(systemTmp, `truss-worker-${process.pid}0`, "source")],
      { stdio: "ignore" },
    );
    children.push(orphan, bystander);
    const orphanExited = new Promise((resolve) => orphan.once("exit", (_code, signal) => resolve(signal)));
    await new Promise((resolve) => setTimeout(resolve, 100));

    const lines: string[] = [];
    const claimed = await claimWorkerTempRoot((message, details) =>
      lines.push(`${message} ${JSON.stringify(details)}`),
    );

    expect(await orphanExited).toBe("SIGKILL");
    expect(bystander.exitCode).toBeNull();
    expect(existsSync(deadRoot)).toBe(false);
    expect(lines.join("\n")).toContain(`"stoppedProcesses":[${orphan.pid}]`);
    await claimed.release();
  });
});
