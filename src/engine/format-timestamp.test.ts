import { describe, expect, it } from "vitest";
import { formatTimestamp } from "./format-timestamp";

describe("formatTimestamp", () => {
  it("writes mm:ss, h:mm:ss past an hour, and floors fractions", () => {
    expect(formatTimestamp(0)).toBe("00:00");
    expect(formatTimestamp(134.9)).toBe("02:14");
    expect(formatTimestamp(3725)).toBe("1:02:05");
    expect(formatTimestamp(62, { withHours: true })).toBe("0:01:02");
    expect(formatTimestamp(-3)).toBe("00:00");
  });
});
