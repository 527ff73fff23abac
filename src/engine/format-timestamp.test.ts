import { describe, expect, it } from "vitest";
import { formatTimestamp } from "./format-timestamp";

describe("formatTimestamp", () => {
  it("writes m:ss as players do, h:mm:ss from an hour, and floors fractions past the tenth", () => {
    expect(formatTimestamp(0)).toBe("0:00");
    expect(formatTimestamp(134.9)).toBe("2:14");
    expect(formatTimestamp(134.94)).toBe("2:14");
    // A frame's time just short of the second reads as the editor's field does (0:15.0).
    expect(formatTimestamp(14.998)).toBe("0:15");
    expect(formatTimestamp(14.96)).toBe("0:15");
    expect(formatTimestamp(725)).toBe("12:05");
    expect(formatTimestamp(3725)).toBe("1:02:05");
    expect(formatTimestamp(-3)).toBe("0:00");
    expect(formatTimestamp(Number.NaN)).toBe("0:00");
  });

  it("pads minutes or forces hours for YouTube's chapter lines", () => {
    expect(formatTimestamp(0, { padMinutes: true })).toBe("00:00");
    expect(formatTimestamp(134, { padMinutes: true })).toBe("02:14");
    expect(formatTimestamp(62, { withHours: true })).toBe("0:01:02");
  });
});
