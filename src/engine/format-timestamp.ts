/**
 * Seconds → a timestamp as players show it: `2:14`, or `1:02:14` once hours are involved;
 * fractions are dropped (a position at 2:14.9 is still in 2:14). YouTube chapter lines pass
 * `padMinutes` (the list must start at `00:00`) and `withHours` (one format throughout a list
 * that passes an hour).
 */
export function formatTimestamp(
  totalSeconds: number,
  { withHours = false, padMinutes = false }: { withHours?: boolean; padMinutes?: boolean } = {},
): string {
  // The epsilon keeps 134.99999 (a sum of centiseconds) from reading as 2:14.
  const whole = Number.isFinite(totalSeconds) ? Math.max(0, Math.floor(totalSeconds + 1e-6)) : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const pad = (value: number) => String(value).padStart(2, "0");
  if (hours > 0 || withHours) return `${hours}:${pad(minutes)}:${pad(seconds)}`;
  return `${padMinutes ? pad(minutes) : minutes}:${pad(seconds)}`;
}
