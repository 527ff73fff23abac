import { describe, expect, it } from "vitest";
import { videoGroupsOf } from "./video-groups";

/** A clip of `video` with its analysis rank and current score. */
const clip = (video: string, rank: number, score: number) => ({
  clipId: `clip_${video}_${String(rank - 1).padStart(2, "0")}`,
  videoId: video,
  videoTitle: `${video}.mp4`,
  rank,
  score,
});

const shape = (groups: ReturnType<typeof videoGroupsOf<ReturnType<typeof clip>>>) =>
  groups.map((group) => ({
    video: group.videoId,
    ranks: group.clips.map((c) => c.rank),
    complete: group.complete,
  }));

describe("videoGroupsOf", () => {
  it("groups the clips by video in listing order, each video's clips best first", () => {
    // Listing order: newest video first, each video's clips lowest rank first.
    const clips = [
      clip("v5", 2, 70),
      clip("v5", 1, 90),
      clip("v4", 3, 40),
      clip("v4", 2, 60),
      clip("v4", 1, 80),
    ];
    expect(shape(videoGroupsOf(clips, false))).toEqual([
      { video: "v5", ranks: [1, 2], complete: true },
      { video: "v4", ranks: [1, 2, 3], complete: true },
    ]);
  });

  it("marks the last video cut when the page ended before its best clip and more can load", () => {
    // The user test: page 1 ended inside v4 with only its weakest clip.
    const page1 = [clip("v5", 1, 90), clip("v4", 5, 42)];
    expect(shape(videoGroupsOf(page1, true))).toEqual([
      { video: "v5", ranks: [1], complete: true },
      { video: "v4", ranks: [5], complete: false },
    ]);
    const page2 = [clip("v4", 4, 50), clip("v4", 3, 60), clip("v4", 2, 70), clip("v4", 1, 80)];
    expect(shape(videoGroupsOf([...page1, ...page2], true)).at(-1)).toEqual({
      video: "v4",
      ranks: [1, 2, 3, 4, 5],
      complete: true,
    });
  });

  it("knows a group is whole once nothing is left to load, even without a rank-1 clip (deleted)", () => {
    const clips = [clip("v4", 3, 40), clip("v4", 2, 60)];
    expect(videoGroupsOf(clips, true).at(-1)?.complete).toBe(false);
    expect(videoGroupsOf(clips, false).at(-1)?.complete).toBe(true);
  });

  it("treats a group whose rank-1 clip was deleted as whole once the next video starts", () => {
    const clips = [clip("v4", 3, 40), clip("v4", 2, 60), clip("v3", 1, 70)];
    expect(shape(videoGroupsOf(clips, true))).toEqual([
      { video: "v4", ranks: [2, 3], complete: true },
      { video: "v3", ranks: [1], complete: true },
    ]);
  });

  it("orders a trimmed clip by its new score, not its rank", () => {
    const clips = [clip("v4", 2, 95), clip("v4", 1, 80)];
    expect(videoGroupsOf(clips, false)[0]?.clips.map((c) => c.rank)).toEqual([2, 1]);
  });

  it("has no groups for no clips", () => {
    expect(videoGroupsOf([], true)).toEqual([]);
  });
});
