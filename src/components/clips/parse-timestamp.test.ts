import { describe, expect, it } from "vitest";
import { parseTimestamp } from "./parse-timestamp";

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
