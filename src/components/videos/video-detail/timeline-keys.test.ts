import { describe, expect, it } from "vitest";
import { timelineKeySeconds } from "./timeline-keys";

const press = (key: string, currentSeconds: number, shiftKey = false) =>
  timelineKeySeconds({ key, shiftKey, currentSeconds, durationSeconds: 600 });

describe("timelineKeySeconds", () => {
  it("steps 5 s with the arrows (30 s with Shift), within the video", () => {
    expect(press("ArrowRight", 11)).toBe(16);
    expect(press("ArrowUp", 11)).toBe(16);
    expect(press("ArrowLeft", 11)).toBe(6);
    expect(press("ArrowDown", 3)).toBe(0);
    expect(press("ArrowRight", 11, true)).toBe(41);
    expect(press("ArrowRight", 598)).toBe(600);
  });

  it("pages a tenth of the video (at least 30 s), and goes to either end with Home and End", () => {
    expect(press("PageUp", 11)).toBe(71);
    expect(press("PageDown", 100)).toBe(40);
    expect(
      timelineKeySeconds({ key: "PageUp", shiftKey: false, currentSeconds: 0, durationSeconds: 70 }),
    ).toBe(30);
    expect(press("Home", 300)).toBe(0);
    expect(press("End", 11)).toBe(600);
  });

  it("leaves other keys to the page", () => {
    expect(press("Tab", 11)).toBeNull();
    expect(press("a", 11)).toBeNull();
  });
});
