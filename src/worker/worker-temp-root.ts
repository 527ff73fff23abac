import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

const ROOT_PREFIX = "truss-worker-";

/**
 * Gives this worker process a temp directory of its own, `<tmp>/truss-worker-<pid>`, and points
 * TMPDIR at it, so every job's work directory (downloads of up to 10 GB, renders) and every
 * ffmpeg it starts land there. A job removes its own on success, failure or SIGTERM; a worker
 * killed outright (SIGKILL, out of memory) cannot. So at start-up the roots of workers that are
 * no longer running are removed: the pid in the name says whose it is, and a root whose pid is
 * alive (another worker on this machine) is left alone. Such a worker's ffmpeg outlives it (a
 * render, or the signal pass over a 4-hour video, taking both cores for minutes while the job
 * runs again here, and writing into files no longer listed): it is stopped first, found by its
 * arguments naming files in that root. Returns the root and its removal, for a graceful exit.
 */
export async function claimWorkerTempRoot(
  log: (message: string, details?: Record<string, unknown>) => void,
): Promise<{ root: string; release: () => Promise<void> }> {
  const systemTmp = os.tmpdir();
  const removed: string[] = [];
  const stoppedProcesses: number[] = [];
  for (const name of await readdir(systemTmp)) {
    const pid = Number(name.slice(ROOT_PREFIX.length));
    if (!name.startsWith(ROOT_PREFIX) || !Number.isInteger(pid) || pid === process.pid || isRunning(pid))
      continue;
    const deadRoot = path.join(systemTmp, name);
    stoppedProcesses.push(...(await killProcessesUsing(deadRoot)));
    await rm(deadRoot, { recursive: true, force: true });
    removed.push(name);
  }
  if (removed.length > 0)
    log("removed the temp files of workers that stopped without cleaning up", { removed, stoppedProcesses });
  const root = path.join(systemTmp, `${ROOT_PREFIX}${process.pid}`);
  await mkdir(root, { recursive: true });
  process.env.TMPDIR = root;
  return { root, release: () => rm(root, { recursive: true, force: true }) };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Kills the processes whose command line names a file under `directory` (Linux's /proc; nothing
 * elsewhere): the ffmpeg a dead worker started, whose input or output lies in its temp root.
 */
async function killProcessesUsing(directory: string): Promise<number[]> {
  const prefix = `${directory}${path.sep}`;
  let entries: string[];
  try {
    entries = await readdir("/proc");
  } catch {
    return [];
  }
  const killed: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    // Gone meanwhile, or not ours to read.
    const commandLine = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (!commandLine.split("\0").some((argument) => argument.includes(prefix))) continue;
    try {
      process.kill(pid, "SIGKILL");
      killed.push(pid);
    } catch {
      // Exited meanwhile, or another user's.
    }
  }
  return killed;
}
