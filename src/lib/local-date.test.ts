import { describe, expect, it } from "vitest";
import { isoDateIn, isoDatesEndingOn } from "./local-date";

describe("isoDateIn", () => {
  it("gives the calendar day where the creator is", () => {
    const lateEveningInNewYork = new Date("2026-12-03T03:30:00Z");
    expect(isoDateIn("UTC", lateEveningInNewYork)).toBe("2026-12-03");
    expect(isoDateIn("America/New_York", lateEveningInNewYork)).toBe("2026-12-02");
    expect(isoDateIn("Asia/Tokyo", new Date("2026-12-02T16:00:00Z"))).toBe("2026-12-03");
  });

  it("falls back to UTC for a name that is not a time zone", () => {
    expect(isoDateIn("Not/AZone", new Date("2026-12-03T03:30:00Z"))).toBe("2026-12-03");
  });
});

describe("isoDatesEndingOn", () => {
  it("lists the days up to the last, across a month's end", () => {
    expect(isoDatesEndingOn("2026-12-02", 4)).toEqual([
      "2026-11-29",
      "2026-11-30",
      "2026-12-01",
      "2026-12-02",
    ]);
    expect(isoDatesEndingOn("2028-03-01", 2)).toEqual(["2028-02-29", "2028-03-01"]);
  });
});
