import { describe, expect, it } from "vitest";
import { bestFirst } from "./best-first";

describe("bestFirst", () => {
  it("orders a video's clips by score, then by rank", () => {
    // After a recut: #3 was trimmed and kept (35); #2 was trimmed since and scored again (70).
    const clips = [
      { rank: 1, score: 48 },
      { rank: 2, score: 70 },
      { rank: 3, score: 35 },
      { rank: 4, score: 48 },
    ];
    expect([...clips].sort(bestFirst).map((clip) => clip.rank)).toEqual([2, 1, 4, 3]);
  });
});
