import { describe, expect, it } from "vitest";
import { formatClock, formatRate, formatTimeLeft } from "./format";

describe("format", () => {
  it("formats rates in decimal units", () => {
    expect(formatRate(12_500_000)).toBe("12.5 MB/s");
    expect(formatRate(0)).toBe("—");
  });

  it("says time left the way people do", () => {
    expect(formatTimeLeft(null)).toBe("estimating…");
    expect(formatTimeLeft(12.4)).toBe("12 s left");
    expect(formatTimeLeft(185)).toBe("about 3 min left");
    expect(formatTimeLeft(3900)).toBe("about 1 h 5 min left");
    expect(formatTimeLeft(7200)).toBe("about 2 h left");
  });

  it("shows durations as a clock", () => {
    expect(formatClock(42)).toBe("0:42");
    expect(formatClock(725)).toBe("12:05");
    expect(formatClock(3723.4)).toBe("1:02:03");
    expect(formatClock(41.6)).toBe("0:42");
  });
});
