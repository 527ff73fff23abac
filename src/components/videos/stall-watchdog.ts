/**
 * Notices an upload that stopped moving: `onStall` runs once when `stallMs` pass without a call
 * to `progress()`. A fixed total timeout would not do: a large part on a slow link may
 * legitimately take many minutes, but it keeps sending bytes. What never recovers on its own is
 * a connection that stays open and sends nothing, so the deadline restarts with every progress.
 */
export type StallWatchdog = {
  /** Bytes moved: the upload is alive, so the stall window starts again. */
  progress: () => void;
  /** The request ended (or was cancelled): nothing to watch any more. */
  stop: () => void;
};

export type StallTimers = {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
};

const realTimers: StallTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export function startStallWatchdog(options: {
  stallMs: number;
  onStall: () => void;
  timers?: StallTimers;
}): StallWatchdog {
  const timers = options.timers ?? realTimers;
  let stopped = false;
  let handle: unknown;
  const arm = () => {
    handle = timers.setTimeout(() => {
      if (stopped) return;
      stopped = true;
      options.onStall();
    }, options.stallMs);
  };
  arm();
  return {
    progress: () => {
      if (stopped) return;
      timers.clearTimeout(handle);
      arm();
    },
    stop: () => {
      stopped = true;
      timers.clearTimeout(handle);
    },
  };
}

/** What the creator reads once a stalled part has used up its retries. */
export function stallMessage(stallMs: number): string {
  return `The upload stalled: no data went through for ${Math.round(stallMs / 1000)} s. Check your connection and try again.`;
}
