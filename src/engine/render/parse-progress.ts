/**
 * Reads the output position from one `-progress` line. ffmpeg writes `out_time_us` (ffmpeg ≥ 5),
 * `out_time_ms` (microseconds too, despite its name) and `out_time=HH:MM:SS.ffffff`; early
 * lines may say `N/A` or go slightly negative. Returns seconds, or null for other lines.
 */
export function parseProgressSeconds(line: string): number | null {
  const micro = /^out_time_(?:us|ms)=(-?\d+)\s*$/.exec(line);
  if (micro) return Math.max(0, Number(micro[1]) / 1_000_000);
  const clock = /^out_time=(-?)(\d+):(\d{2}):(\d{2}(?:\.\d+)?)\s*$/.exec(line);
  if (clock) {
    if (clock[1] === "-") return 0;
    return Number(clock[2]) * 3600 + Number(clock[3]) * 60 + Number(clock[4]);
  }
  return null;
}
