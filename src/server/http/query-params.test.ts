import { describe, expect, it } from "vitest";
import { MinScoreParam, wholeNumberParam } from "./query-params";

describe("wholeNumberParam", () => {
  it("reads decimal digits within the bounds", () => {
    expect(MinScoreParam.parse("0")).toBe(0);
    expect(MinScoreParam.parse("070")).toBe(70);
    expect(wholeNumberParam(1, 10_000).parse("10000")).toBe(10_000);
  });

  it("refuses what coercion would have read as another number", () => {
    for (const value of [" ", "", "0x32", "1e1", "5.0", "-1", "+5", "101", " 5"]) {
      expect(MinScoreParam.safeParse(value).success, value).toBe(false);
    }
  });
});
