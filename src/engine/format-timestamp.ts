/**
 * Seconds → a timestamp as players show it: `2:14`, or `1:02:14` once hours are involved;
 * fractions are dropped (a position at 2:14.9 is still in 2:14) once rounded to the tenth the
 * clip editor shows: a start at 14.998 s (a frame's time) reads 0:15 on its card, as in the
 * editor, not 0:14. YouTube chapter lines pass
 * `padMinutes` (the list must start at `00:00`) and `withHours` (one format throughout a list
 * that passes an hour).
 */
export function formatTimestamp(
  totalSeconds: number,
  { withHours = false, padMinutes = false }: { withHours?: boolean; padMinutes?: boolean } = {},
): string {
  const whole = Number.isFinite(totalSeconds)
    ? Math.max(0, Math.floor(Math.round(totalSeconds * 10) / 10))
    : 0;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const pad = (value: number) => String(value).padStart(2, "0");
  if (hours > 0 || withHours) return `${hours}:${pad(minutes)}:${pad(seconds)}`;
  return `${padMinutes ? pad(minutes) : minutes}:${pad(seconds)}`;
}

/** The whole second a timestamp shows for `seconds` (see formatTimestamp). */
export function shownWholeSeconds(seconds: number): number {
  return Number.isFinite(seconds) ? Math.max(0, Math.floor(Math.round(seconds * 10) / 10)) : 0;
}
