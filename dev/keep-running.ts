import type { ChildProcess } from "node:child_process";

type Log = (message: string) => void;

export type KeptRunning = {
  /** The process running now. */
  readonly current: ChildProcess;
  /** Stops restarting it, then stops it with `stopChild`. */
  stop: () => Promise<void>;
};

/**
 * Runs `start()` and starts it again whenever its process dies without being asked to stop: the
 * worker killed by the kernel's out-of-memory killer (SIGKILL) or crashing. Without this the
 * web app kept taking uploads that no worker would ever process, and the terminal said nothing
 * (a signal leaves no exit code to report). A process that keeps dying is started again at most
 * `maxRestarts` times within `windowMs`, then left stopped, saying so.
 */
export function keepRunning(options: {
  name: string;
  start: () => ChildProcess;
  stopChild: (child: ChildProcess) => Promise<void>;
  log: Log;
  restartDelayMs?: number;
  maxRestarts?: number;
  windowMs?: number;
}): KeptRunning {
  const { name, start, log, restartDelayMs = 2_000, maxRestarts = 5, windowMs = 60_000 } = options;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  const restartTimes: number[] = [];
  let current = start();

  const watch = (child: ChildProcess) => {
    child.once("exit", (code, signal) => {
      // Its own exit on a SIGINT/SIGTERM sent to it (Ctrl+C reaches every process in the
      // terminal's group, maybe before this process starts stopping it) is no failure.
      if (stopping || code === 0 || code === 130 || code === 143) return;
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      const now = Date.now();
      while (restartTimes.length > 0 && now - (restartTimes[0] ?? 0) > windowMs) restartTimes.shift();
      if (restartTimes.length >= maxRestarts) {
        log(
          `[${name}] ${how}; it stopped ${maxRestarts + 1} times within ${windowMs / 1000} s, so it stays stopped`,
        );
        return;
      }
      restartTimes.push(now);
      log(`[${name}] ${how}; starting it again in ${restartDelayMs / 1000} s`);
      restartTimer = setTimeout(() => {
        if (stopping) return;
        current = start();
        watch(current);
      }, restartDelayMs);
    });
  };
  watch(current);

  return {
    get current() {
      return current;
    },
    stop: async () => {
      stopping = true;
      clearTimeout(restartTimer);
      await options.stopChild(current);
    },
  };
}
