import { describe, expect, it } from "vitest";
import { loginPathFor, toSafeCallbackPath } from "./callback-url";

const origin = "http://localhost:3000";

describe("toSafeCallbackPath", () => {
  it.each([
    ["/dashboard", "/dashboard"],
    ["/videos?page=2#top", "/videos?page=2#top"],
    ["/settings/../dashboard", "/dashboard"],
  ])("keeps the same-origin path %s", (value, expected) => {
    expect(toSafeCallbackPath(value, origin)).toBe(expected);
    expect(toSafeCallbackPath(value)).toBe(expected);
  });

  it("turns a same-origin absolute URL into a path, only when the origin is known", () => {
    expect(toSafeCallbackPath("http://localhost:3000/clips?x=1", origin)).toBe("/clips?x=1");
    expect(toSafeCallbackPath("http://localhost:3000/clips")).toBeNull();
  });

  it.each([
    "https://evil.example/dashboard",
    "//evil.example/dashboard",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "data:text/html,hi",
    "http://localhost:3000//evil.example",
    "http://localhost:3001/dashboard",
    "https://localhost:3000/dashboard",
    "/dash\nboard",
    "/dash\tboard",
    "evil.example",
    "",
    `/${"a".repeat(3000)}`,
  ])("refuses %j", (value) => {
    expect(toSafeCallbackPath(value, origin)).toBeNull();
  });
});

describe("loginPathFor", () => {
  it("sends the visitor back to the page they asked for", () => {
    expect(loginPathFor("/clips?sort=score")).toBe("/login?callbackUrl=%2Fclips%3Fsort%3Dscore");
  });

  it("falls back to the dashboard for anything unsafe or missing", () => {
    expect(loginPathFor("//evil.example")).toBe("/login?callbackUrl=%2Fdashboard");
    expect(loginPathFor(null)).toBe("/login?callbackUrl=%2Fdashboard");
  });
});
