import { describe, expect, it } from "vitest";
import { clipIdFor, clipIdPrefixForVideo, createId, isClipId, isId } from "./ids";

describe("createId", () => {
  it("prefixes the id with its kind", () => {
    expect(createId("video")).toMatch(/^vid_[0-9A-Z]{26}$/);
    expect(isId("video", createId("video"))).toBe(true);
    expect(isId("video", createId("stream"))).toBe(false);
  });

  it("creates ids in lexicographical (creation) order, even within one millisecond", () => {
    const ids = Array.from({ length: 200 }, () => createId("video", 1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    const later = createId("video", 1_700_000_000_001);
    expect(later > ids.at(-1)!).toBe(true);
  });

  it("rejects look-alikes", () => {
    expect(isId("video", "vid_../../etc")).toBe(false);
    expect(isId("video", `vid_${"A".repeat(27)}`)).toBe(false);
    expect(isId("video", "")).toBe(false);
  });
});

describe("clipIdFor", () => {
  it("is deterministic and shares its video's prefix", () => {
    const videoId = createId("video");
    expect(clipIdFor(videoId, 3)).toBe(clipIdFor(videoId, 3));
    expect(clipIdFor(videoId, 3).startsWith(clipIdPrefixForVideo(videoId))).toBe(true);
    expect(isClipId(clipIdFor(videoId, 12))).toBe(true);
    expect(clipIdFor(videoId, 2) < clipIdFor(videoId, 10)).toBe(true);
  });

  it("refuses what is not a video id or an ordinal", () => {
    expect(() => clipIdFor("vid_nope", 0)).toThrow();
    expect(() => clipIdFor(createId("video"), 100)).toThrow();
    expect(isClipId("clip_x_01")).toBe(false);
  });
});
