import { describe, expect, it } from "vitest";
import { clipIdFor, clipIdPrefixForVideo, createId } from "@/lib/ids";
import {
  CLIP_RANK_SK_END,
  CLIP_SK_PREFIX,
  chaptersKey,
  clipKey,
  clipRankKey,
  clipRankSkFrom,
  clipSkPrefixForVideo,
  creatorKey,
  emailLookupKey,
  LIST_PREFIXES,
  magicLinkKey,
  VIDEO_SK_PREFIX,
  videoKey,
} from "./keys";

describe("key scheme", () => {
  it("pins the key strings of the data model", () => {
    expect(creatorKey("cr_1")).toEqual({ PK: "CREATOR#cr_1", SK: "METADATA" });
    expect(videoKey("cr_1", "vid_2")).toEqual({ PK: "CREATOR#cr_1", SK: "ASSET#vid_2" });
    expect(chaptersKey("cr_1", "vid_2")).toEqual({ PK: "CREATOR#cr_1", SK: "CHAPTERS#vid_2" });
    expect(clipKey("cr_1", "clip_3")).toEqual({ PK: "CREATOR#cr_1", SK: "CLIP#clip_3" });
    expect(clipRankKey("cr_1", 7, "clip_3")).toEqual({ PK: "CREATOR#cr_1", SK: "CLIPRANK#007#clip_3" });
    expect(magicLinkKey("abc")).toEqual({ PK: "MAGIC#abc", SK: "VERIFY" });
    expect(emailLookupKey("a@b.test")).toEqual({ PK: "EMAIL#a@b.test", SK: "CREATOR" });
  });

  it("keeps list prefixes disjoint, so a list Query never reads another entity", () => {
    const prefixes = Object.values(LIST_PREFIXES);
    for (const a of prefixes) {
      for (const b of prefixes) {
        if (a !== b) expect(a.startsWith(b)).toBe(false);
      }
    }
    // The starting scheme's ASSET#<id>#CHAPTERS would have sorted inside the videos range.
    expect(chaptersKey("cr_1", "vid_2").SK.startsWith(VIDEO_SK_PREFIX)).toBe(false);
    expect(clipRankKey("cr_1", 90, "clip_1").SK.startsWith(CLIP_SK_PREFIX)).toBe(false);
  });

  it("orders rank items by score, and the score range covers exactly the scores asked for", () => {
    const keys = [5, 80, 100, 79, 42].map((score) => clipRankKey("cr_1", score, `clip_${score}`).SK).sort();
    expect(keys.map((sk) => sk.split("#")[1])).toEqual(["005", "042", "079", "080", "100"]);
    const from = clipRankSkFrom(80);
    expect(keys.filter((sk) => sk >= from && sk <= CLIP_RANK_SK_END).map((sk) => sk.split("#")[1])).toEqual([
      "080",
      "100",
    ]);
  });

  it("puts a video's clips in one key range", () => {
    const videoId = createId("video");
    const prefix = clipSkPrefixForVideo(clipIdPrefixForVideo(videoId));
    expect(clipKey("cr_1", clipIdFor(videoId, 0)).SK.startsWith(prefix)).toBe(true);
    expect(clipKey("cr_1", clipIdFor(createId("video"), 0)).SK.startsWith(prefix)).toBe(false);
  });

  it("refuses key parts that could spill into the next part", () => {
    expect(() => videoKey("cr_1#ASSET", "vid_2")).toThrow();
    expect(() => videoKey("cr_1", "")).toThrow();
    expect(() => clipRankKey("cr_1", 101, "clip_1")).toThrow();
    expect(() => clipRankKey("cr_1", 55.5, "clip_1")).toThrow();
  });
});
