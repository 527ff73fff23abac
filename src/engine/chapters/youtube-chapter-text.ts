import { formatTimestamp } from "@/engine/format-timestamp";
import type { Chapter } from "@/engine/types";
import { MIN_CHAPTER_SECONDS } from "./build-chapters";

/**
 * Chapters as the lines YouTube reads from a description: one `timestamp title` per line, the
 * first at 00:00 (YouTube requires it), every chapter at least 10 s long (a shorter one is
 * merged into the one before it), `h:mm:ss` throughout once the video passes an hour.
 * YouTube shows chapters only when there are at least three; fewer still export as text.
 */
export function toYouTubeChapterText(chapters: readonly Chapter[]): string {
  const sorted = [...chapters]
    .filter((chapter) => Number.isFinite(chapter.startSeconds))
    .sort((a, b) => a.startSeconds - b.startSeconds);
  if (sorted.length === 0) return "";

  const kept: Chapter[] = [];
  for (const chapter of sorted) {
    const previous = kept.at(-1);
    if (!previous) {
      kept.push({ ...chapter, startSeconds: 0 });
      continue;
    }
    if (Math.floor(chapter.startSeconds) - Math.floor(previous.startSeconds) >= MIN_CHAPTER_SECONDS) {
      kept.push(chapter);
      continue;
    }
    // The previous chapter would last under 10 s. The first one must stay (it is the 00:00
    // line) and runs on through this one; any other is dropped, the one before it running on.
    if (kept.length === 1) kept[0] = { ...previous, endSeconds: chapter.endSeconds };
    else kept.splice(kept.length - 1, 1, chapter);
  }
  // The last chapter must also last 10 s; if it does not, fold it into the one before.
  const last = kept.at(-1);
  const beforeLast = kept.at(-2);
  if (last && beforeLast && last.endSeconds - last.startSeconds < MIN_CHAPTER_SECONDS) {
    kept.splice(kept.length - 2, 2, { ...beforeLast, endSeconds: last.endSeconds });
  }

  const withHours = kept.some((chapter) => chapter.startSeconds >= 3600 || chapter.endSeconds > 3600);
  return kept
    .map((chapter) => `${formatTimestamp(chapter.startSeconds, { withHours })} ${oneLine(chapter.title)}`)
    .join("\n");
}

function oneLine(title: string): string {
  return title.replace(/\s+/g, " ").trim() || "Chapter";
}
