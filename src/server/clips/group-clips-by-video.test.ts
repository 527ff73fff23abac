import { describe, expect, it } from "vitest";
import { groupClipsByVideo } from "./group-clips-by-video";

describe("groupClipsByVideo", () => {
  it("keeps videos newest first and puts each video's best clip first", () => {
    const keyOrder = [
      { videoId: "new", rank: 3, score: 97 },
      { videoId: "new", rank: 2, score: 98 },
      { videoId: "new", rank: 1, score: 99 },
      { videoId: "old", rank: 2, score: 98 },
      { videoId: "old", rank: 1, score: 99 },
    ];
    expect(groupClipsByVideo(keyOrder).map((clip) => `${clip.videoId}#${clip.rank}`)).toEqual([
      "new#1",
      "new#2",
      "new#3",
      "old#1",
      "old#2",
    ]);
  });

  it("puts a clip scored again after a trim where its score now ranks it", () => {
    const keyOrder = [
      { videoId: "v", rank: 3, score: 81 },
      { videoId: "v", rank: 2, score: 60 },
      { videoId: "v", rank: 1, score: 75 },
    ];
    expect(groupClipsByVideo(keyOrder).map((clip) => clip.rank)).toEqual([3, 1, 2]);
  });

  it("merges a video split across two pages", () => {
    const pageOne = [
      { videoId: "a", rank: 5, score: 95 },
      { videoId: "a", rank: 4, score: 96 },
    ];
    const pageTwo = [
      { videoId: "a", rank: 3, score: 97 },
      { videoId: "b", rank: 1, score: 99 },
    ];
    expect(groupClipsByVideo([...pageOne, ...pageTwo]).map((clip) => clip.rank)).toEqual([3, 4, 5, 1]);
  });
});
