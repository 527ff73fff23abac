import { describe, expect, it } from "vitest";
import { markerRows, tickSeconds } from "./timeline-layout";

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

describe("markerRows", () => {
  it("keeps markers that are apart on one row", () => {
    const markers = [0.1, 0.5, 0.9].map((centreShare, index) => ({ place: index + 1, centreShare }));
    expect(markerRows(markers, 0.05)).toEqual([0, 0, 0]);
  });

  it("moves a marker that would cover a better one to the next free row", () => {
    // Places 3, 1, 2 at 50%, 52% and 54%: place 1 stays on top, 2 clears it by 2% only.
    const markers = [
      { place: 3, centreShare: 0.5 },
      { place: 1, centreShare: 0.52 },
      { place: 2, centreShare: 0.54 },
      { place: 4, centreShare: 0.8 },
    ];
    expect(markerRows(markers, 0.05)).toEqual([2, 0, 1, 0]);
  });

  it("never leaves two markers on a row closer than the gap, and uses no more rows than needed", () => {
    const markers = Array.from({ length: 20 }, (_, index) => ({
      place: index + 1,
      centreShare: ((index * 7919) % 100) / 100,
    }));
    const rows = markerRows(markers, 0.08);
    for (const [a, first] of markers.entries()) {
      for (const [b, second] of markers.entries()) {
        if (a < b && rows[a] === rows[b]) {
          expect(Math.abs(first.centreShare - second.centreShare)).toBeGreaterThanOrEqual(0.08);
        }
      }
    }
    // Twenty markers about 5% apart, with an 8% gap: every other one on a second row.
    expect(Math.max(...rows)).toBe(1);
  });
});
