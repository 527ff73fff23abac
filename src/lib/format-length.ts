/**
 * A length for people: `38 s`, `1 min 12 s`, `2 h 5 min` (past an hour the seconds no longer
 * matter). Rounded to the second, as lengths are shown.
 */
export function formatLength(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole} s`;
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  if (hours > 0) return minutes > 0 ? `${hours} h ${minutes} min` : `${hours} h`;
  const rest = whole % 60;
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}
