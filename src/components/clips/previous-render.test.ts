import { describe, expect, it } from "vitest";
import { previousRenderOf } from "./previous-render";
import { readyClipDetail } from "./testing/clip-detail-fixture";

describe("previousRenderOf", () => {
  const clip = readyClipDetail();

  it("names the range and length of the render kept while a newer revision is owed", () => {
    expect(previousRenderOf({ ...clip, revision: clip.revision + 1 })).toBe("0:10–0:30, 20 s");
  });

  it("is null when the render is the clip's current revision, or there is none", () => {
    expect(previousRenderOf(clip)).toBeNull();
    expect(previousRenderOf({ ...clip, revision: 1, rendered: null })).toBeNull();
  });
});
