import { describe, expect, it } from "vitest";
import { MIN_CHAPTER_SECONDS } from "./build-chapters";
import { toYouTubeChapterText } from "./youtube-chapter-text";

describe("toYouTubeChapterText", () => {
  it("writes one line per chapter, the first at 00:00", () => {
    const text = toYouTubeChapterText([
      { startSeconds: 0.4, endSeconds: 62, title: "Part 1 · talk" },
      { startSeconds: 62, endSeconds: 130, title: "Part 2 · high energy" },
      { startSeconds: 130, endSeconds: 200, title: "Part 3 · action" },
    ]);
    expect(text).toBe("00:00 Part 1 · talk\n01:02 Part 2 · high energy\n02:10 Part 3 · action");
  });

  it("merges chapters shorter than 10 s and moves the first to 00:00", () => {
    const text = toYouTubeChapterText([
      { startSeconds: 3, endSeconds: 40, title: "Intro" },
      { startSeconds: 40, endSeconds: 45, title: "Blip" },
      { startSeconds: 45, endSeconds: 100, title: "Main" },
      { startSeconds: 100, endSeconds: 104, title: "Outro" },
    ]);
    expect(text).toBe("00:00 Intro\n00:45 Main");
  });

  it("uses h:mm:ss throughout for a video over an hour", () => {
    const text = toYouTubeChapterText([
      { startSeconds: 0, endSeconds: 1800, title: "First half" },
      { startSeconds: 1800, endSeconds: 3725, title: "Second half\nwith a newline" },
      { startSeconds: 3725, endSeconds: 4000, title: "Bonus" },
    ]);
    expect(text).toBe("0:00:00 First half\n0:30:00 Second half with a newline\n1:02:05 Bonus");
  });

  it("returns nothing for no chapters", () => {
    expect(toYouTubeChapterText([])).toBe("");
  });
  it("merges a short last chapter into the one before, which then lasts long enough", () => {
    const text = toYouTubeChapterText([
      { startSeconds: 0, endSeconds: 12, title: "a" },
      { startSeconds: 12, endSeconds: 20, title: "b" },
      { startSeconds: 20, endSeconds: 24, title: "c" },
    ]);
    expect(text).toBe("00:00 a\n00:12 b");
  });

  it("runs a short first chapter on through the next, keeping it at 00:00", () => {
    const text = toYouTubeChapterText([
      { startSeconds: 0, endSeconds: 4, title: "Cold open" },
      { startSeconds: 4, endSeconds: 9, title: "Title card" },
      { startSeconds: 9, endSeconds: 60, title: "Main" },
      { startSeconds: 60, endSeconds: 90, title: "Outro" },
    ]);
    expect(text).toBe("00:00 Cold open\n01:00 Outro");
  });

  it("always writes lines YouTube accepts: the first at 00:00, each at least 10 s", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round++) {
      const chapters = [];
      let startSeconds = random() * 5;
      for (let index = 0; index < 1 + Math.floor(random() * 12); index++) {
        const endSeconds = startSeconds + 1 + random() * 25;
        chapters.push({ startSeconds, endSeconds, title: `c${index}` });
        startSeconds = endSeconds;
      }
      const endSeconds = startSeconds;
      const lines = toYouTubeChapterText(chapters).split("\n");
      const starts = lines.map((line) =>
        (line.split(" ")[0] ?? "").split(":").reduce((total, part) => total * 60 + Number(part), 0),
      );
      expect(starts[0]).toBe(0);
      for (let index = 1; index < starts.length; index++) {
        expect((starts[index] ?? 0) - (starts[index - 1] ?? 0)).toBeGreaterThanOrEqual(MIN_CHAPTER_SECONDS);
      }
      if (starts.length > 1)
        expect(endSeconds - (starts.at(-1) ?? 0)).toBeGreaterThanOrEqual(MIN_CHAPTER_SECONDS);
      // Only short chapters go: one of 11 s or more (10 in whole seconds) starting 10 s in stays.
      const titles = lines.map((line) => line.split(" ")[1]);
      for (const chapter of chapters.filter(
        (c) => c.startSeconds >= 10 && c.endSeconds - c.startSeconds >= 11,
      )) {
        expect(titles).toContain(chapter.title);
      }
    }
  });
});
