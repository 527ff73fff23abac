import { describe, expect, it } from "vitest";
import { formatLength, parseTimestamp } from "./format-timestamp";

describe("formatLength", () => {
  it("says seconds, then minutes and seconds", () => {
    expect(formatLength(38.4)).toBe("38 s");
    expect(formatLength(120)).toBe("2 min");
    expect(formatLength(72)).toBe("1 min 12 s");
  });
});

describe("parseTimestamp", () => {
  it("reads seconds, m:ss and h:mm:ss, with fractions", () => {
    expect(parseTimestamp("75")).toBe(75);
    expect(parseTimestamp(" 1:15.5 ")).toBe(75.5);
    expect(parseTimestamp("1:01:15")).toBe(3675);
    expect(parseTimestamp("0:07")).toBe(7);
  });

  it("refuses what is not a time", () => {
    expect(parseTimestamp("")).toBeNull();
    expect(parseTimestamp("1:75")).toBeNull();
    expect(parseTimestamp("abc")).toBeNull();
    expect(parseTimestamp("-5")).toBeNull();
    expect(parseTimestamp("1:2:3:4")).toBeNull();
  });
});
