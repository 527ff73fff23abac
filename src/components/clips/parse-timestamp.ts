/**
 * Reads what a person types for a time: `75`, `75.5`, `1:15`, `1:15.5` or `1:01:15`.
 * Returns null when it is not a time.
 */
export function parseTimestamp(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+(?::[0-5]?\d){0,2}(?:\.\d+)?$/.test(trimmed)) return null;
  const parts = trimmed.split(":");
  let seconds = 0;
  for (const part of parts) seconds = seconds * 60 + Number(part);
  return Number.isFinite(seconds) ? Math.round(seconds * 100) / 100 : null;
}
