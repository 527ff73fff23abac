import { describe, expect, it } from "vitest";
import {
  clampGeminiAnalysis,
  clampGeminiChapters,
  clampGeminiMoments,
  clampGeminiTranscript,
  fitRange,
} from "./clamp-gemini-analysis";
import { geminiMoment } from "./gemini-test-fixtures";

const limits = { durationSeconds: 100, minSeconds: 15, maxSeconds: 60 };

describe("fitRange", () => {
  it("keeps a range that already fits", () => {
    expect(fitRange(10, 40, limits)).toEqual({ startSeconds: 10, endSeconds: 40 });
  });

  it("clamps to the video", () => {
    expect(fitRange(-3, 20, limits)).toEqual({ startSeconds: 0, endSeconds: 20 });
    expect(fitRange(70, 130, limits)).toEqual({ startSeconds: 70, endSeconds: 100 });
  });

  it("grows a short range past its end, keeping the hook", () => {
    expect(fitRange(20, 25, limits)).toEqual({ startSeconds: 20, endSeconds: 35 });
  });

  it("grows a short range backwards when the video ends first", () => {
    expect(fitRange(95, 99, limits)).toEqual({ startSeconds: 85, endSeconds: 100 });
  });

  it("cuts a long range's tail", () => {
    expect(fitRange(10, 90, limits)).toEqual({ startSeconds: 10, endSeconds: 70 });
  });

  it("rejects empty, inverted and out-of-video ranges", () => {
    expect(fitRange(30, 30, limits)).toBeNull();
    expect(fitRange(50, 20, limits)).toBeNull();
    expect(fitRange(100, 120, limits)).toBeNull();
    expect(fitRange(-20, -5, limits)).toBeNull();
  });

  it("gives a video shorter than the minimum one clip of all of it", () => {
    expect(fitRange(2, 5, { durationSeconds: 8, minSeconds: 8, maxSeconds: 60 })).toEqual({
      startSeconds: 0,
      endSeconds: 8,
    });
  });
});

describe("clampGeminiMoments", () => {
  it("drops the lower-scored of two overlapping clips and non-finite values", () => {
    const moments = clampGeminiMoments(
      [
        geminiMoment({ startSeconds: 10, endSeconds: 30, score: 50, title: "weaker" }),
        geminiMoment({ startSeconds: 20, endSeconds: 40, score: 80, title: "stronger" }),
        geminiMoment({ startSeconds: 40, endSeconds: 60, score: 60, title: "adjacent" }),
        geminiMoment({ startSeconds: Number.NaN, endSeconds: 60, score: 90, title: "nan" }),
        geminiMoment({
          startSeconds: 70,
          endSeconds: 90,
          score: Number.POSITIVE_INFINITY,
          title: "infinite",
        }),
      ],
      limits,
    );
    expect(moments.map((m) => m.title)).toEqual(["stronger", "adjacent"]);
  });

  it("clamps scores and reason times, cleans titles and hashtags", () => {
    const [moment] = clampGeminiMoments(
      [
        geminiMoment({
          startSeconds: 10,
          endSeconds: 30,
          score: -12.4,
          title: "   ",
          hookLine: "  ",
          reasons: [
            { atSeconds: 5, text: "before the clip" },
            { atSeconds: 99, text: "after the clip" },
            { atSeconds: 12, text: "   " },
          ],
          platformCopy: {
            youtube: { title: "A".repeat(150), description: "ok", hashtags: ["#a b", "A b", "", "##c"] },
            tiktok: { title: "t", description: "d", hashtags: [] },
            twitch: { title: "t", description: "d", hashtags: [] },
            discord: { title: "t", description: "d", hashtags: [] },
          },
        }),
      ],
      limits,
    );
    expect(moment!.score).toBe(0);
    expect(moment!.title).toBe("Moment at 0:10");
    expect(moment!.hookLine).toBeNull();
    expect(moment!.reasons).toEqual([
      { atSeconds: 10, text: "before the clip" },
      { atSeconds: 30, text: "after the clip" },
    ]);
    expect(moment!.platformCopy.youtube?.title).toHaveLength(100);
    expect(moment!.platformCopy.youtube?.hashtags).toEqual(["#ab", "#c"]);
  });
});

describe("clampGeminiChapters", () => {
  it("makes chapters contiguous from 0:00 to the end", () => {
    expect(
      clampGeminiChapters(
        [
          { startSeconds: 40, title: "Middle" },
          { startSeconds: 3, title: "Start" },
          { startSeconds: 75, title: "End" },
        ],
        100,
      ),
    ).toEqual([
      { startSeconds: 0, endSeconds: 40, title: "Start" },
      { startSeconds: 40, endSeconds: 75, title: "Middle" },
      { startSeconds: 75, endSeconds: 100, title: "End" },
    ]);
  });

  it("folds chapters shorter than 10 s into the one before", () => {
    expect(
      clampGeminiChapters(
        [
          { startSeconds: 0, title: "A" },
          { startSeconds: 5, title: "Too soon" },
          { startSeconds: 50, title: "B" },
          { startSeconds: 95, title: "Too late" },
          { startSeconds: 400, title: "Past the end" },
          { startSeconds: 60, title: "" },
        ],
        100,
      ),
    ).toEqual([
      { startSeconds: 0, endSeconds: 50, title: "A" },
      { startSeconds: 50, endSeconds: 100, title: "B" },
    ]);
  });

  it("gives nothing for nothing", () => {
    expect(clampGeminiChapters([], 100)).toEqual([]);
  });
});

describe("clampGeminiTranscript", () => {
  it("orders segments, clamps them and trims overlaps", () => {
    expect(
      clampGeminiTranscript(
        [
          { startSeconds: 10, endSeconds: 14, text: " second " },
          { startSeconds: 2, endSeconds: 11, text: "first" },
          { startSeconds: 98, endSeconds: 130, text: "last" },
          { startSeconds: 20, endSeconds: 18, text: "inverted" },
          { startSeconds: 30, endSeconds: 31, text: "" },
        ],
        100,
      ),
    ).toEqual([
      { startSeconds: 2, endSeconds: 10, text: "first" },
      { startSeconds: 10, endSeconds: 14, text: "second" },
      { startSeconds: 98, endSeconds: 100, text: "last" },
    ]);
  });
});

describe("clampGeminiAnalysis", () => {
  it("ends moments where the picture ends, and keeps chapters and transcript to the file's end", () => {
    const clamped = clampGeminiAnalysis(
      {
        moments: [
          geminiMoment({ startSeconds: 10, endSeconds: 40 }),
          geminiMoment({ startSeconds: 70, endSeconds: 90 }),
        ],
        chapters: [
          { startSeconds: 0, title: "Talk" },
          { startSeconds: 60, title: "Sound only" },
        ],
        transcript: [{ startSeconds: 80, endSeconds: 85, text: "still talking" }],
      },
      { ...limits, momentsEndSeconds: 50 },
    );
    expect(clamped.moments.map(({ startSeconds, endSeconds }) => [startSeconds, endSeconds])).toEqual([
      [10, 40],
    ]);
    expect(clamped.chapters.map((chapter) => chapter.startSeconds)).toEqual([0, 60]);
    expect(clamped.transcript).toHaveLength(1);
  });
});
