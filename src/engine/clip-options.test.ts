import { describe, expect, it } from "vitest";
import { ClipOptions, ClipOptionsInput, DEFAULT_CLIP_OPTIONS } from "./clip-options";

describe("ClipOptionsInput", () => {
  it("fills what a request leaves out with the defaults", () => {
    expect(ClipOptionsInput.parse({})).toEqual({ count: 5, minSeconds: 15, maxSeconds: 60 });
    expect(ClipOptionsInput.parse({ count: 10, maxSeconds: 30 })).toEqual({
      count: 10,
      minSeconds: 15,
      maxSeconds: 30,
    });
    expect(ClipOptions.parse(DEFAULT_CLIP_OPTIONS)).toEqual(DEFAULT_CLIP_OPTIONS);
  });

  it.each([
    [{ count: 0 }, "count"],
    [{ count: 21 }, "count"],
    [{ count: 2.5 }, "count"],
    [{ minSeconds: 2 }, "minSeconds"],
    [{ maxSeconds: 181 }, "maxSeconds"],
    [{ minSeconds: 40, maxSeconds: 30 }, "maxSeconds"],
    // Alone, a maximum under the default minimum of 15 s is refused, not quietly widened.
    [{ maxSeconds: 10 }, "maxSeconds"],
    [{ count: "5" }, "count"],
    [{ length: 30 }, ""],
  ])("refuses %j, naming %s", (input, field) => {
    const result = ClipOptionsInput.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join(".")).toBe(field);
  });
});
