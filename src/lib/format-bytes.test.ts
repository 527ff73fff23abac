import { describe, expect, it } from "vitest";
import { describeSizeOverLimit, formatBytes, formatLimitBytes, formatSizeOverLimit } from "./format-bytes";

describe("formatBytes", () => {
  it("writes sizes in decimal units, one decimal under 100 so a growing figure keeps its width", () => {
    expect(formatBytes(0)).toBe("0 B");
    expect(formatBytes(999)).toBe("999 B");
    expect(formatBytes(1500)).toBe("1.5 KB");
    expect(formatBytes(734_003_200)).toBe("734 MB");
    expect(formatBytes(1_000_000)).toBe("1.0 MB");
    expect(formatLimitBytes(10_000_000_000)).toBe("10 GB");
    expect(formatBytes(10_737_418_240)).toBe("10.7 GB");
    expect(formatBytes(-1)).toBe("—");
  });
});

describe("formatSizeOverLimit", () => {
  it("tells a size from the limit it is over, however close", () => {
    expect(formatSizeOverLimit(12_400_000_000, 10_000_000_000)).toEqual({ size: "12.4 GB", limit: "10 GB" });
    expect(formatSizeOverLimit(10_000_000_001, 10_000_000_000)).toEqual({
      size: "10,000,000,001 bytes",
      limit: "10,000,000,000 bytes",
    });
    expect(formatSizeOverLimit(10_040_000_000, 10_000_000_000)).toEqual({ size: "10.04 GB", limit: "10 GB" });
    expect(describeSizeOverLimit("This file", 10_737_418_240, 10_000_000_000)).toBe(
      "This file is 10.7 GB; the limit is 10 GB.",
    );
  });
});
