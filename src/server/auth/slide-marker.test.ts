import { describe, expect, it } from "vitest";
import { createSlideMarker, isSlideMarkerCurrent, slideMarkerCookieName } from "./slide-marker";

const key = "marker-key-for-tests";
const sessionToken = "a".repeat(43);
const otherToken = "b".repeat(43);
const until = new Date("2030-01-02T03:04:05.678Z");
const untilMs = Math.floor(until.getTime() / 1000) * 1000;

describe("slide marker", () => {
  it("is current for its own session token until its time, not at or after it", () => {
    const marker = createSlideMarker({ key, sessionToken, until });
    expect(marker).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(isSlideMarkerCurrent({ key, sessionToken, marker, nowMs: untilMs - 1 })).toBe(true);
    expect(isSlideMarkerCurrent({ key, sessionToken, marker, nowMs: untilMs })).toBe(false);
    expect(isSlideMarkerCurrent({ key, sessionToken, marker, nowMs: untilMs + 60_000 })).toBe(false);
  });

  it("counts only for the session it was issued for and under the key that signed it", () => {
    const marker = createSlideMarker({ key, sessionToken, until });
    const nowMs = untilMs - 60_000;
    expect(isSlideMarkerCurrent({ key, sessionToken: otherToken, marker, nowMs })).toBe(false);
    expect(isSlideMarkerCurrent({ key: "another-key", sessionToken, marker, nowMs })).toBe(false);
  });

  it("refuses a marker whose time was moved, or that is malformed or missing", () => {
    const marker = createSlideMarker({ key, sessionToken, until });
    const [seconds, tag] = marker.split(".");
    const nowMs = untilMs - 60_000;
    const later = `${Number(seconds) + 86_400}.${tag}`;
    expect(isSlideMarkerCurrent({ key, sessionToken, marker: later, nowMs })).toBe(false);
    for (const bad of [undefined, "", seconds, `${seconds}.`, `${seconds}.${tag}x`, `x${marker}`]) {
      expect(isSlideMarkerCurrent({ key, sessionToken, marker: bad, nowMs })).toBe(false);
    }
  });

  it("is named after its session cookie, __Secure- with the secure one", () => {
    expect(slideMarkerCookieName("authjs.session-token")).toBe("truss.session-slide");
    expect(slideMarkerCookieName("__Secure-authjs.session-token")).toBe("__Secure-truss.session-slide");
  });
});
