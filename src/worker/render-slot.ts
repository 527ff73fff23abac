/**
 * A slot that one task holds at a time; the others wait their turn in order. A wait ends early,
 * with the signal's reason, when its signal aborts.
 */
export type Slot = { run: <T>(work: () => Promise<T>, signal?: AbortSignal) => Promise<T> };

export function createSlot(): Slot {
  let held = false;
  const waiting: (() => void)[] = [];

  const acquire = (signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      signal?.throwIfAborted();
      if (!held) {
        held = true;
        return resolve();
      }
      const onAbort = () => {
        waiting.splice(waiting.indexOf(grant), 1);
        reject(signal?.reason);
      };
      const grant = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      waiting.push(grant);
      signal?.addEventListener("abort", onAbort, { once: true });
    });

  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else held = false;
  };

  return {
    run: async (work, signal) => {
      await acquire(signal);
      try {
        return await work();
      } finally {
        release();
      }
    },
  };
}

/**
 * One render at a time in a worker, whichever job asks: an analysis rendering its clips and a
 * creator's re-render each have a slot of their own kind, but x264 already keeps two cores
 * busy, and two encoders (~360 MB each) beside the worker would pass its 600 MB budget.
 */
export const renderSlot = createSlot();
