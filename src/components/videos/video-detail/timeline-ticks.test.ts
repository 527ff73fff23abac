import { describe, expect, it } from "vitest";
import { tickSeconds } from "./timeline-ticks";

describe("tickSeconds", () => {
  it("labels round steps from the start and the end, leaving out a step too close to the end", () => {
    expect(tickSeconds(20)).toEqual([0, 5, 10, 15, 20]);
    // 40 would sit beside 45.
    expect(tickSeconds(45)).toEqual([0, 10, 20, 30, 45]);
    expect(tickSeconds(60)).toEqual([0, 10, 20, 30, 40, 50, 60]);
    expect(tickSeconds(600)).toEqual([0, 120, 240, 360, 480, 600]);
    expect(tickSeconds(2 * 3600 + 5)).toEqual([0, 1800, 3600, 5400, 7205]);
  });

  it("starts at 0 and ends at the last whole second for any length, with room between every label", () => {
    for (let durationSeconds = 0.4; durationSeconds <= 4 * 3600; durationSeconds *= 1.07) {
      const ticks = tickSeconds(durationSeconds);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBe(Math.floor(durationSeconds));
      expect(ticks.length).toBeLessThanOrEqual(7);
      for (let index = 1; index < ticks.length; index += 1) {
        // At least a tenth of the timeline between neighbours (the end label is right-aligned).
        expect(ticks[index]! - ticks[index - 1]!).toBeGreaterThanOrEqual(durationSeconds / 10);
      }
    }
  });
});
