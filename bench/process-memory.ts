import { readdirSync, readFileSync } from "node:fs";

/** The tree's largest sample: the root process and each child's resident memory, in kB. */
export type TreeSample = { totalKb: number; rootKb: number; childrenKb: number[] };

/**
 * Peak resident memory of a process tree, sampled from /proc: of the whole tree at once (the
 * root process and every child, VmRSS summed per sample: what a worker running the work needs)
 * and of the largest child (its VmHWM). Linux only; elsewhere every figure stays 0.
 */
export class PeakMemory {
  private childPeakKb = 0;
  private treePeak: TreeSample = { totalKb: 0, rootKb: 0, childrenKb: [] };
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly rootPid = process.pid) {}

  start(intervalMs = 150) {
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.sample();
  }

  reset() {
    this.childPeakKb = 0;
    this.treePeak = { totalKb: 0, rootKb: 0, childrenKb: [] };
  }

  get treeMb() {
    return this.treePeak.totalKb / 1024;
  }

  /** The tree's largest sample, part by part. */
  get treePeakSample(): TreeSample {
    return this.treePeak;
  }

  get childMb() {
    return this.childPeakKb / 1024;
  }

  private sample() {
    const rootKb = statusField(readStatus(this.rootPid), "VmRSS");
    const childrenKb: number[] = [];
    for (const pid of childPids(this.rootPid)) {
      const status = readStatus(pid);
      // The child exited between listing and reading.
      if (!status) continue;
      childrenKb.push(statusField(status, "VmRSS"));
      this.childPeakKb = Math.max(this.childPeakKb, statusField(status, "VmHWM"));
    }
    const totalKb = rootKb + childrenKb.reduce((sum, kb) => sum + kb, 0);
    if (totalKb > this.treePeak.totalKb) this.treePeak = { totalKb, rootKb, childrenKb };
  }
}

function readStatus(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return "";
  }
}

/** A `kB` field of /proc/<pid>/status. */
function statusField(status: string, field: "VmRSS" | "VmHWM"): number {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

function childPids(pid: number): number[] {
  const pids: number[] = [];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    }
  } catch {
    // Not Linux, or the process is gone: no child figures.
  }
  return pids;
}
