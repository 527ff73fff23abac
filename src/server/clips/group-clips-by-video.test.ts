import { describe, expect, it } from "vitest";
import { groupClipsByVideo } from "./group-clips-by-video";

describe("groupClipsByVideo", () => {
  it("keeps videos newest first and puts each video's best clip first", () => {
    const keyOrder = [
      { videoId: "new", rank: 3 },
      { videoId: "new", rank: 2 },
      { videoId: "new", rank: 1 },
      { videoId: "old", rank: 2 },
      { videoId: "old", rank: 1 },
    ];
    expect(groupClipsByVideo(keyOrder).map((clip) => `${clip.videoId}#${clip.rank}`)).toEqual([
      "new#1",
      "new#2",
      "new#3",
      "old#1",
      "old#2",
    ]);
  });

  it("merges a video split across two pages", () => {
    const pageOne = [
      { videoId: "a", rank: 5 },
      { videoId: "a", rank: 4 },
    ];
    const pageTwo = [
      { videoId: "a", rank: 3 },
      { videoId: "b", rank: 1 },
    ];
    expect(groupClipsByVideo([...pageOne, ...pageTwo]).map((clip) => clip.rank)).toEqual([3, 4, 5, 1]);
  });
});
