import { describe, expect, it } from "vitest";
import { chooseOutputFrameRate } from "./choose-output-frame-rate";

describe("chooseOutputFrameRate", () => {
  it("keeps a constant rate up to 60 fps", () => {
    expect(chooseOutputFrameRate({ fps: 29.97, isVariableFrameRate: false })).toBeNull();
    expect(chooseOutputFrameRate({ fps: 60, isVariableFrameRate: false })).toBeNull();
  });

  it("makes variable-rate footage constant at its rounded rate, within 24–60", () => {
    expect(chooseOutputFrameRate({ fps: 29.3, isVariableFrameRate: true })).toBe(29);
    expect(chooseOutputFrameRate({ fps: 12, isVariableFrameRate: true })).toBe(24);
  });

  it("brings high-speed sources down to 50 or 60, and guesses 30 for an unknown rate", () => {
    expect(chooseOutputFrameRate({ fps: 100, isVariableFrameRate: false })).toBe(50);
    expect(chooseOutputFrameRate({ fps: 120, isVariableFrameRate: false })).toBe(60);
    expect(chooseOutputFrameRate({ fps: 240, isVariableFrameRate: false })).toBe(60);
    expect(chooseOutputFrameRate({ fps: 0, isVariableFrameRate: false })).toBe(30);
    expect(chooseOutputFrameRate({ fps: Number.NaN, isVariableFrameRate: true })).toBe(30);
  });
});
