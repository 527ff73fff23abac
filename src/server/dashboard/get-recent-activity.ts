import "server-only";
import { DAILY_COUNTERS, type DailyAnalytics, listDailyAnalytics } from "@/db/repos/daily-analytics-repo";
import { isoDateIn, isoDatesEndingOn } from "@/lib/local-date";
import { type Runtime, tableOf } from "@/server/runtime";

/** How many days the dashboard's activity chart covers. */
export const ACTIVITY_DAYS = 14;

export type RecentActivity = {
  /** Every day of the period, oldest first; a day with nothing done has zeros. */
  days: DailyAnalytics[];
  totals: Omit<DailyAnalytics, "date">;
};

/**
 * The creator's last `days` calendar days (their time zone, ending today) from the daily
 * counters: one Query on a key range.
 */
export async function getRecentActivity(options: {
  runtime: Runtime;
  creatorId: string;
  timeZone: string;
  days?: number;
  now?: Date;
}): Promise<RecentActivity> {
  const dates = isoDatesEndingOn(isoDateIn(options.timeZone, options.now), options.days ?? ACTIVITY_DAYS);
  const stored = await listDailyAnalytics({
    table: tableOf(options.runtime),
    creatorId: options.creatorId,
    fromIsoDate: dates[0] ?? "",
    toIsoDate: dates.at(-1) ?? "",
  });
  return summarizeDays(dates, stored);
}

/** The stored days laid over every date of the period, and their totals. */
export function summarizeDays(dates: string[], stored: DailyAnalytics[]): RecentActivity {
  const byDate = new Map(stored.map((day) => [day.date, day]));
  const zero = Object.fromEntries(DAILY_COUNTERS.map((name) => [name, 0])) as RecentActivity["totals"];
  const days = dates.map((date) => ({ ...zero, ...byDate.get(date), date }));
  const totals = { ...zero };
  for (const day of days) for (const name of DAILY_COUNTERS) totals[name] += day[name];
  // Minutes are added in hundredths; keep the sum as tidy as its parts.
  totals.minutesAnalyzed = Math.round(totals.minutesAnalyzed * 100) / 100;
  return { days, totals };
}
