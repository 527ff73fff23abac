import { describe, expect, it } from "vitest";
import { keepsCurrentMediaUrl, namesSameObject } from "./same-media-object";

const signed = (path: string, date: string, origin = "https://storage.test") =>
  `${origin}${path}?X-Amz-Date=${date}&X-Amz-Signature=${date}abc`;

describe("namesSameObject", () => {
  it("takes two signatures of one object for the same, whatever their query", () => {
    expect(namesSameObject(signed("/bucket/v1/source.mp4", "1"), signed("/bucket/v1/source.mp4", "2"))).toBe(
      true,
    );
  });

  it("tells apart another object (a new render's key) or another origin", () => {
    expect(
      namesSameObject(signed("/bucket/c1/render-1.mp4", "1"), signed("/bucket/c1/render-2.mp4", "1")),
    ).toBe(false);
    expect(
      namesSameObject(signed("/b/source.mp4", "1"), signed("/b/source.mp4", "1", "https://cdn.test")),
    ).toBe(false);
  });

  it("is false when either is missing or not a URL", () => {
    expect(namesSameObject(null, signed("/b/source.mp4", "1"))).toBe(false);
    expect(namesSameObject(signed("/b/source.mp4", "1"), null)).toBe(false);
    expect(namesSameObject("not a url", "not a url")).toBe(false);
  });
});

describe("keepsCurrentMediaUrl", () => {
  const currentUrl = signed("/b/source.mp4", "1");

  it("keeps the playing URL when the page's refresh only signed the same object again", () => {
    expect(
      keepsCurrentMediaUrl({ currentUrl, currentFailed: false, pageUrl: signed("/b/source.mp4", "2") }),
    ).toBe(true);
  });

  it("takes the page's URL when the current one failed", () => {
    expect(
      keepsCurrentMediaUrl({ currentUrl, currentFailed: true, pageUrl: signed("/b/source.mp4", "2") }),
    ).toBe(false);
  });

  it("takes the page's URL for another object, or when there is none to keep", () => {
    expect(
      keepsCurrentMediaUrl({ currentUrl, currentFailed: false, pageUrl: signed("/b/render-2.mp4", "2") }),
    ).toBe(false);
    expect(keepsCurrentMediaUrl({ currentUrl: null, currentFailed: false, pageUrl: currentUrl })).toBe(false);
    expect(keepsCurrentMediaUrl({ currentUrl, currentFailed: false, pageUrl: null })).toBe(false);
  });
});
