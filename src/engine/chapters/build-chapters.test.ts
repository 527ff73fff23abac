import { describe, expect, it } from "vitest";
import { computeInterest } from "@/engine/moments/interest-curve";
import { computeSecondFeatures } from "@/engine/moments/second-features";
import { bracketedEvent, makeSignalCurve, type PaintedStretch } from "@/engine/testing/signal-curves";
import type { SignalCurve } from "@/engine/types";
import { buildChapters, targetChapterCount } from "./build-chapters";

function chaptersOf(signals: SignalCurve) {
  const features = computeSecondFeatures(signals);
  return buildChapters({ signals, features, interest: computeInterest(features) });
}

describe("targetChapterCount", () => {
  it("suits the length: one for a short, ~5 for 10 min, 15 for an hour, 20 for two", () => {
    expect(targetChapterCount(20)).toBe(1);
    expect(targetChapterCount(119)).toBe(1);
    expect(targetChapterCount(600)).toBe(5);
    expect(targetChapterCount(3600)).toBe(15);
    expect(targetChapterCount(7200)).toBe(20);
    expect(targetChapterCount(100 * 3600)).toBe(30);
  });

  it("never gives two: YouTube shows chapters only from three", () => {
    expect(targetChapterCount(120)).toBe(3);
    expect(targetChapterCount(150)).toBe(3);
    expect(targetChapterCount(299)).toBe(3);
    for (let seconds = 0; seconds <= 4 * 3600; seconds += 7) {
      expect(targetChapterCount(seconds)).not.toBe(2);
    }
  });
});

describe("buildChapters", () => {
  it("starts chapters where the video changes, at pauses, and describes each part", () => {
    // Ten minutes: talk, then a loud part, then action, then quiet talk again.
    const stretches: PaintedStretch[] = [
      { startSeconds: 0, endSeconds: 150, speech: true },
      ...bracketedEvent({ startSeconds: 151, endSeconds: 300, loudnessLufs: -9 }),
      ...bracketedEvent({ startSeconds: 302, endSeconds: 450, motion: 0.07 }),
      { startSeconds: 452, endSeconds: 600, speech: true },
    ];
    const chapters = chaptersOf(makeSignalCurve({ durationSeconds: 600, stretches }));
    expect(chapters).toHaveLength(5);
    expect(chapters[0]?.startSeconds).toBe(0);
    expect(chapters.at(-1)?.endSeconds).toBe(600);
    for (const [index, chapter] of chapters.entries()) {
      expect(chapter.endSeconds - chapter.startSeconds).toBeGreaterThanOrEqual(600 / 5 / 3);
      if (index > 0) expect(chapter.startSeconds).toBe(chapters[index - 1]?.endSeconds);
      expect(chapter.title).toMatch(new RegExp(`^Part ${index + 1} · `));
    }
    const starts = chapters.map((chapter) => chapter.startSeconds);
    for (const edge of [151, 302, 452]) {
      expect(
        starts.some((start) => Math.abs(start - edge) <= 2),
        `a chapter starts near ${edge}`,
      ).toBe(true);
    }
    const titleAt = (second: number) =>
      chapters.find((chapter) => chapter.startSeconds <= second && second < chapter.endSeconds)?.title;
    expect(titleAt(200)).toBe(`Part ${chapters.findIndex((c) => c.startSeconds === 151) + 1} · high energy`);
    expect(titleAt(350)).toMatch(/· action$/);
    expect(titleAt(60)).toMatch(/· talk$/);
  });

  it("titles a part in which something is said with its first words", () => {
    const stretches: PaintedStretch[] = [
      { startSeconds: 0, endSeconds: 150, speech: true },
      ...bracketedEvent({ startSeconds: 151, endSeconds: 300, loudnessLufs: -9 }),
      { startSeconds: 302, endSeconds: 450, speech: true },
    ];
    const signals = makeSignalCurve({ durationSeconds: 450, stretches });
    const features = computeSecondFeatures(signals);
    const chapters = buildChapters({
      signals,
      features,
      interest: computeInterest(features),
      transcript: [
        { startSeconds: 340, endSeconds: 344, text: "And later, the second half." },
        { startSeconds: 2, endSeconds: 6, text: "Welcome back, today we build a tiny robot arm." },
        { startSeconds: 310, endSeconds: 315, text: "Now for the quiet part!" },
      ],
    });
    const titleAt = (second: number) =>
      chapters.find((chapter) => chapter.startSeconds <= second && second < chapter.endSeconds)?.title;
    // The first words said in it, whatever the transcript's order; a part where nothing is
    // said is described by its signals.
    expect(titleAt(0)).toBe("“Welcome back, today we build a…”");
    expect(titleAt(200)).toMatch(/^Part \d · high energy$/);
    expect(titleAt(350)).toBe("“Now for the quiet part”");
  });

  it("splits a steady video evenly when nothing changes", () => {
    const chapters = chaptersOf(makeSignalCurve({ durationSeconds: 600 }));
    expect(chapters).toHaveLength(5);
    for (const chapter of chapters) {
      expect(chapter.endSeconds - chapter.startSeconds).toBeGreaterThan(100);
      expect(chapter.title).toMatch(/· calm$/);
    }
  });

  it("splits a 2½-minute video at its changes into three chapters", () => {
    // Talk, a loud part, then action: the planted 150 s video that used to get one chapter.
    const stretches: PaintedStretch[] = [
      { startSeconds: 0, endSeconds: 50, speech: true },
      ...bracketedEvent({ startSeconds: 51, endSeconds: 100, loudnessLufs: -9 }),
      ...bracketedEvent({ startSeconds: 102, endSeconds: 150, motion: 0.07 }),
    ];
    const chapters = chaptersOf(makeSignalCurve({ durationSeconds: 150, stretches }));
    const [first, second, third] = chapters.map((chapter) => chapter.startSeconds);
    expect(chapters).toHaveLength(3);
    expect(first).toBe(0);
    // At a part's pause or cut, as in ten minutes above.
    expect(Math.abs((second ?? 0) - 51)).toBeLessThanOrEqual(2);
    expect(Math.abs((third ?? 0) - 102)).toBeLessThanOrEqual(2);
    expect(chapters.map((chapter) => chapter.title)).toEqual([
      "Part 1 · talk",
      "Part 2 · high energy",
      "Part 3 · action",
    ]);
  });

  it("ends a short intro where the next part begins, not at the first cut a third of the average in", () => {
    // As the planted 150 s video: 15 s of talk, then a loud part. Its first keyframe inside the
    // loud part (a cut, as the fast pass sees cuts) is at 16.7 s, a third of the average in.
    const stretches: PaintedStretch[] = [
      { startSeconds: 0, endSeconds: 14, speech: true },
      ...bracketedEvent({ startSeconds: 15, endSeconds: 35, loudnessLufs: -9 }),
      { startSeconds: 16.667, endSeconds: 17, cutEverySeconds: 1 },
      ...bracketedEvent({ startSeconds: 60, endSeconds: 84, motion: 0.07 }),
    ];
    const chapters = chaptersOf(makeSignalCurve({ durationSeconds: 150, stretches }));
    const [first, second, third] = chapters.map((chapter) => chapter.startSeconds);
    expect([first, second]).toEqual([0, 15]);
    // The loud part's end: its cut at 35 s or the pause after it.
    expect(third).toBeGreaterThanOrEqual(35);
    expect(third).toBeLessThanOrEqual(36);
    expect(chapters[1]?.title).toBe("Part 2 · high energy");
  });

  it("keeps every chapter at 10 s or more, the first and last too", () => {
    // Pauses 4 s in and 5 s before the end: too close to the edges to start or end a chapter.
    const stretches: PaintedStretch[] = [
      { startSeconds: 3, endSeconds: 4, silent: true, cutEverySeconds: 1 },
      { startSeconds: 4, endSeconds: 30, loudnessLufs: -9 },
      ...bracketedEvent({ startSeconds: 70, endSeconds: 100, motion: 0.07 }),
      { startSeconds: 145, endSeconds: 146, silent: true, cutEverySeconds: 1 },
    ];
    const chapters = chaptersOf(makeSignalCurve({ durationSeconds: 150, stretches }));
    expect(chapters).toHaveLength(3);
    for (const chapter of chapters)
      expect(chapter.endSeconds - chapter.startSeconds).toBeGreaterThanOrEqual(10);
  });

  it("gives a short video one chapter", () => {
    expect(chaptersOf(makeSignalCurve({ durationSeconds: 1 }))).toEqual([
      { startSeconds: 0, endSeconds: 1, title: "Part 1 · calm" },
    ]);
  });
});
