import { describe, expect, it } from "vitest";
import { quotedTitle } from "./quoted-title";

describe("quotedTitle", () => {
  it("quotes a title once, leaving a caption's own quotes", () => {
    expect(quotedTitle("Loud burst at 0:15")).toBe("“Loud burst at 0:15”");
    expect(quotedTitle("“So this is how it starts” at 0:40")).toBe("“So this is how it starts” at 0:40");
  });
});
