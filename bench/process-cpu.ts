import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

let clockTicksPerSecond: number | undefined;

/**
 * CPU seconds (user + system) spent so far by this process, every thread included (the face
 * detector's worker thread too), plus every child process it has waited for (ffmpeg). Unlike
 * wall time, this barely moves when another program shares the cores, so it tells the work a
 * command adds apart from how busy the host was. The children's part is read from
 * /proc/self/stat: Linux only; elsewhere it is null.
 */
export function treeCpuSeconds(): number | null {
  const usage = process.cpuUsage();
  const childrenSeconds = waitedChildrenCpuSeconds();
  if (childrenSeconds === null) return null;
  return (usage.user + usage.system) / 1e6 + childrenSeconds;
}

function waitedChildrenCpuSeconds(): number | null {
  try {
    // Asked before reading the counters, so getconf's own run is not counted in this reading.
    clockTicksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    const stat = readFileSync("/proc/self/stat", "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of proc(5), cutime and cstime, in clock ticks; field 3 is fields[0].
    const ticks = Number(fields[13]) + Number(fields[14]);
    return Number.isFinite(ticks) && clockTicksPerSecond > 0 ? ticks / clockTicksPerSecond : null;
  } catch {
    return null;
  }
}
