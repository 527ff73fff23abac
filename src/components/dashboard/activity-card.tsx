import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/lib/format-count";
import type { RecentActivity } from "@/server/dashboard/get-recent-activity";

const CHART_HEIGHT = 64;

/** `2 Dec` for a calendar date (already the creator's day). */
function dayLabel(isoDate: string): string {
  return new Date(`${isoDate}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  });
}

/**
 * The last days at a glance: clips made per day as bars, with what they came from (videos,
 * minutes analysed) beside. From the daily counters, in the creator's time zone.
 */
export function ActivityCard({ activity }: { activity: RecentActivity }) {
  const { days, totals } = activity;
  const busiest = days.reduce<(typeof days)[number] | undefined>(
    (best, day) => (day.clipsCreated > (best?.clipsCreated ?? 0) ? day : best),
    undefined,
  );
  const most = Math.max(1, busiest?.clipsCreated ?? 0);
  const first = days[0];
  const last = days.at(-1);
  const barWidth = 100 / Math.max(1, days.length);
  const summary = `${formatCount(totals.clipsCreated, "clip")} from ${formatCount(totals.videosProcessed, "video")}, ${Math.round(totals.minutesAnalyzed)} min analysed`;
  return (
    <Card>
      <CardHeader title={`Last ${days.length} days`} description={summary} />
      <CardBody className="py-4">
        <figure>
          <svg
            viewBox={`0 0 100 ${CHART_HEIGHT}`}
            preserveAspectRatio="none"
            className="h-20 w-full"
            role="img"
            aria-label={`Clips made each day: ${
              days
                .filter((day) => day.clipsCreated > 0)
                .map((day) => `${dayLabel(day.date)} ${day.clipsCreated}`)
                .join(", ") || "none"
            }`}
          >
            {days.map((day, index) => {
              // A day with any clip shows at least a sliver, however busy the busiest day.
              const height =
                day.clipsCreated > 0 ? Math.max(2, (day.clipsCreated / most) * (CHART_HEIGHT - 4)) : 0;
              const x = index * barWidth + barWidth * 0.15;
              return (
                <g key={day.date}>
                  {/* Each day's slot, so the empty days read as days. */}
                  <rect
                    x={x}
                    width={barWidth * 0.7}
                    y={0}
                    height={CHART_HEIGHT}
                    rx="0.8"
                    className="fill-slate-100"
                  />
                  <rect
                    x={x}
                    width={barWidth * 0.7}
                    y={CHART_HEIGHT - height}
                    height={height}
                    rx="0.8"
                    className="fill-brand-500"
                  >
                    <title>{`${dayLabel(day.date)}: ${formatCount(day.clipsCreated, "clip")} from ${formatCount(day.videosProcessed, "video")}`}</title>
                  </rect>
                </g>
              );
            })}
          </svg>
          <figcaption className="mt-1 text-xs text-slate-500">
            <span className="flex justify-between gap-2 whitespace-nowrap">
              <span>{first && dayLabel(first.date)}</span>
              <span>Clips made each day</span>
              <span>{last && "Today"}</span>
            </span>
            {/* The tallest bar's number gives the others their scale. */}
            {busiest && (
              <span className="mt-1 block text-center">
                Busiest day: {dayLabel(busiest.date)}, {formatCount(busiest.clipsCreated, "clip")}
              </span>
            )}
          </figcaption>
        </figure>
      </CardBody>
    </Card>
  );
}
