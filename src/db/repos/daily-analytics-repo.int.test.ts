import { describe, expect, it } from "vitest";
import { createId } from "@/lib/ids";
import { testTable } from "../../../dev/test/runtime";
import type { QueryStats } from "../table";
import { incrementDailyCounters, listDailyAnalytics } from "./daily-analytics-repo";

const table = testTable();

describe("daily analytics repository", () => {
  it("adds concurrent increments without losing any", async () => {
    const creatorId = createId("creator");
    await Promise.all(
      Array.from({ length: 20 }, () =>
        incrementDailyCounters({
          table,
          creatorId,
          isoDate: "2026-11-29",
          counters: { clipsCreated: 1, minutesAnalyzed: 0.5 },
        }),
      ),
    );
    const [day] = await listDailyAnalytics({
      table,
      creatorId,
      fromIsoDate: "2026-11-29",
      toIsoDate: "2026-11-29",
    });
    expect(day).toMatchObject({
      date: "2026-11-29",
      clipsCreated: 20,
      minutesAnalyzed: 10,
      videosUploaded: 0,
    });
  });

  it("reads a date range in one Query that returns only days in the range", async () => {
    const creatorId = createId("creator");
    for (const isoDate of ["2026-10-31", "2026-11-01", "2026-11-15", "2026-11-30", "2026-12-01"]) {
      await incrementDailyCounters({ table, creatorId, isoDate, counters: { videosUploaded: 1 } });
    }
    const stats: QueryStats[] = [];
    const days = await listDailyAnalytics({
      table,
      creatorId,
      fromIsoDate: "2026-11-01",
      toIsoDate: "2026-11-30",
      onStats: (s) => stats.push(s),
    });
    expect(days.map((day) => day.date)).toEqual(["2026-11-01", "2026-11-15", "2026-11-30"]);
    expect(stats).toEqual([expect.objectContaining({ count: 3, scannedCount: 3 })]);
  });

  it("refuses a malformed date instead of writing a stray key", async () => {
    const creatorId = createId("creator");
    await expect(
      incrementDailyCounters({ table, creatorId, isoDate: "2026-11-29#X", counters: { clipsCreated: 1 } }),
    ).rejects.toThrow(/Invalid date/);
    // The stray key would sort inside November's range.
    expect(
      await listDailyAnalytics({ table, creatorId, fromIsoDate: "2026-11-01", toIsoDate: "2026-11-30" }),
    ).toEqual([]);
  });
});
