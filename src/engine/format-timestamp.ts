/**
 * Seconds → a timestamp people read: `02:14`, or `1:02:14` once hours are involved. Pass
 * `withHours` to force the hour field (YouTube chapter lists use one format throughout).
 */
export function formatTimestamp(
  totalSeconds: number,
  { withHours = false }: { withHours?: boolean } = {},
): string {
  const whole = Math.max(0, Math.floor(totalSeconds + 1e-6));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const pad = (value: number) => String(value).padStart(2, "0");
  if (hours > 0 || withHours) return `${hours}:${pad(minutes)}:${pad(seconds)}`;
  return `${pad(minutes)}:${pad(seconds)}`;
}
