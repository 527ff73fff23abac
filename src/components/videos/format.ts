import { formatTimestamp } from "@/engine/format-timestamp";

/** Display helpers for sizes, rates and durations (pure; shared by the upload panel and the library). */

const UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "—";
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = value >= 100 || unit === 0 ? 0 : 1;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

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
