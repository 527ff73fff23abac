import { formatTimestamp } from "@/engine/format-timestamp";
import { formatBytes } from "@/lib/format-bytes";

/** Display helpers for rates and durations (pure; shared by the upload panel and the library). */

export function formatRate(bytesPerSecond: number): string {
  return bytesPerSecond > 0 ? `${formatBytes(bytesPerSecond)}/s` : "—";
}

/** Time left as people say it: "about 3 min", "12 s", "1 h 5 min". */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "estimating…";
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s left`;
  const minutes = Math.round(whole / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} h${rest ? ` ${rest} min` : ""} left`;
}

/** A video's length as a clock: 0:42, 12:05, 1:02:03; rounded, as lengths are (41.6 s reads 0:42). */
export function formatClock(totalSeconds: number): string {
  return formatTimestamp(Math.round(totalSeconds));
}
