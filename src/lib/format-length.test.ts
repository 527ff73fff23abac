import { describe, expect, it } from "vitest";
import { formatLength } from "./format-length";

describe("formatLength", () => {
  it("says seconds, then minutes and seconds, then hours and minutes", () => {
    expect(formatLength(38.4)).toBe("38 s");
    expect(formatLength(59.6)).toBe("1 min");
    expect(formatLength(120)).toBe("2 min");
    expect(formatLength(72)).toBe("1 min 12 s");
    expect(formatLength(4 * 3600)).toBe("4 h");
    expect(formatLength(2 * 3600 + 5 * 60 + 59)).toBe("2 h 5 min");
    expect(formatLength(-3)).toBe("0 s");
  });
});
