/**
 * Speed and time left for an upload, from (time, bytes) samples over a sliding window: recent
 * enough to follow a changing connection, long enough not to jump with every part.
 */
export type ProgressReading = {
  loadedBytes: number;
  totalBytes: number;
  /** 0..1 */
  fraction: number;
  bytesPerSecond: number;
  /** null until there is enough to estimate from. */
  secondsLeft: number | null;
};

export function createProgressMeter(options: { totalBytes: number; windowMs?: number; startBytes?: number }) {
  const windowMs = options.windowMs ?? 5_000;
  const samples: { atMs: number; bytes: number }[] = [];
  let loadedBytes = options.startBytes ?? 0;

  return {
    /** Records the bytes uploaded so far (never less than before) and returns the reading. */
    update(bytes: number, nowMs: number): ProgressReading {
      loadedBytes = Math.min(options.totalBytes, Math.max(loadedBytes, bytes));
      samples.push({ atMs: nowMs, bytes: loadedBytes });
      while (samples.length > 2 && (samples[0]?.atMs ?? nowMs) < nowMs - windowMs) samples.shift();
      return this.read(nowMs);
    },
    read(nowMs: number): ProgressReading {
      const first = samples[0];
      const elapsedMs = first ? nowMs - first.atMs : 0;
      const bytesPerSecond = first && elapsedMs >= 500 ? ((loadedBytes - first.bytes) * 1000) / elapsedMs : 0;
      const remaining = options.totalBytes - loadedBytes;
      return {
        loadedBytes,
        totalBytes: options.totalBytes,
        fraction: options.totalBytes > 0 ? loadedBytes / options.totalBytes : 1,
        bytesPerSecond,
        secondsLeft: remaining === 0 ? 0 : bytesPerSecond > 0 ? remaining / bytesPerSecond : null,
      };
    },
  };
}
