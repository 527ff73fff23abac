import { beforeAll, describe, expect, it } from "vitest";
import { incrementDailyCounters } from "@/db/repos/daily-analytics-repo";
import { createId } from "@/lib/ids";
import { getRuntime, tableOf } from "@/server/runtime";
import { provisionResources } from "../../../dev/provision";
import { getRecentActivity } from "./get-recent-activity";

const runtime = getRuntime();

beforeAll(async () => {
  const { clients, config } = runtime;
  await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
});

describe("getRecentActivity", () => {
  it("lays the stored days over the creator's last days, zeros between, with totals", async () => {
    const creatorId = createId("creator");
    const table = tableOf(runtime);
    const count = (isoDate: string, clipsCreated: number, minutesAnalyzed: number) =>
      incrementDailyCounters({
        table,
        creatorId,
        isoDate,
        counters: { videosProcessed: 1, clipsCreated, minutesAnalyzed },
      });
    await count("2026-12-02", 5, 12.5);
    await count("2026-12-02", 3, 1.25);
    await count("2026-11-30", 2, 60);
    await count("2026-11-15", 9, 5); // before the period

    // 03:30 UTC on the 3rd is still the 2nd in New York.
    const activity = await getRecentActivity({
      runtime,
      creatorId,
      timeZone: "America/New_York",
      days: 4,
      now: new Date("2026-12-03T03:30:00Z"),
    });
    expect(activity.days.map((day) => [day.date, day.clipsCreated, day.videosProcessed])).toEqual([
      ["2026-11-29", 0, 0],
      ["2026-11-30", 2, 1],
      ["2026-12-01", 0, 0],
      ["2026-12-02", 8, 2],
    ]);
    expect(activity.totals).toMatchObject({ videosProcessed: 3, clipsCreated: 10, minutesAnalyzed: 73.75 });
  });
});
