import { describe, expect, it } from "vitest";
import { formatCount } from "./format-count";

describe("formatCount", () => {
  it("counts with the noun's singular for one only", () => {
    expect(formatCount(0, "clip")).toBe("0 clips");
    expect(formatCount(1, "clip")).toBe("1 clip");
    expect(formatCount(5, "clip")).toBe("5 clips");
    expect(formatCount(1, "chapter")).toBe("1 chapter");
    expect(formatCount(2, "person", "people")).toBe("2 people");
  });
});
