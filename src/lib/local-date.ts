/**
 * Calendar days as a creator lives them: the daily counters are kept per day in the creator's
 * time zone (Settings), so "today" on the dashboard is their today, not UTC's.
 */

const DAY_PARTS = { year: "numeric", month: "2-digit", day: "2-digit" } as const;

/** `2026-12-02` for the moment `at`, in `timeZone` (an IANA name; UTC when it is not one). */
export function isoDateIn(timeZone: string, at: Date = new Date()): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-CA", { ...DAY_PARTS, timeZone });
  } catch {
    // Settings accept only known zones; a stored one this runtime lacks counts as UTC.
    format = new Intl.DateTimeFormat("en-CA", { ...DAY_PARTS, timeZone: "UTC" });
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The `count` calendar days ending with `lastIsoDate`, oldest first. */
export function isoDatesEndingOn(lastIsoDate: string, count: number): string[] {
  const last = Date.parse(`${lastIsoDate}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) =>
    new Date(last - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
}
