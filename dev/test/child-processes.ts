import { readdir, readFile } from "node:fs/promises";

/**
 * This process's children as /proc lists them now, with their command lines (arguments joined
 * by spaces): for tests that play the kernel's OOM killer on an ffmpeg run.
 */
export async function childProcesses(): Promise<{ pid: number; commandLine: string }[]> {
  const children: { pid: number; commandLine: string }[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    // The parent's pid is the field after the state, which follows the ")" that ends the name.
    const parentPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parentPid !== process.pid) continue;
    const commandLine = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    children.push({ pid: Number(entry), commandLine: commandLine.replaceAll("\0", " ").trim() });
  }
  return children;
}
