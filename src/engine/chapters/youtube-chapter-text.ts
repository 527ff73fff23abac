import { formatTimestamp, shownWholeSeconds } from "@/engine/format-timestamp";
import type { Chapter } from "@/engine/types";
import { MIN_CHAPTER_SECONDS } from "./build-chapters";

/**
 * Chapters as the lines YouTube reads from a description: one `timestamp title` per line, the
 * first at 00:00 (YouTube requires it), every chapter at least 10 s long (a shorter one is
 * merged into the one before it), `h:mm:ss` throughout once the video passes an hour.
 * YouTube shows chapters only when there are at least three; fewer still export as text.
 */
export function toYouTubeChapterText(chapters: readonly Chapter[]): string {
  const kept = [...chapters]
    .filter((chapter) => Number.isFinite(chapter.startSeconds) && Number.isFinite(chapter.endSeconds))
    .sort((a, b) => a.startSeconds - b.startSeconds);
  const first = kept[0];
  if (!first) return "";
  kept[0] = { ...first, startSeconds: 0 };
  const videoEndSeconds = Math.max(...kept.map((chapter) => chapter.endSeconds));
  // As the lines read: from a chapter's whole-second timestamp to the next one's.
  const lengthOf = (index: number) => {
    const next = kept[index + 1];
    const startSeconds = kept[index]?.startSeconds ?? 0;
    return (next ? shownWholeSeconds(next.startSeconds) : videoEndSeconds) - shownWholeSeconds(startSeconds);
  };

  // From the end, so a short chapter is merged before the one ahead of it is judged: with
  // 0–12, 12–20 and 20–24, the last joins the second (12 s), and both lines stay valid.
  for (let index = kept.length - 1; index >= 1; index--) {
    if (lengthOf(index) < MIN_CHAPTER_SECONDS) kept.splice(index, 1);
  }
  // The first must stay (it is the 00:00 line): a short one runs on through those after it.
  while (kept.length > 1 && lengthOf(0) < MIN_CHAPTER_SECONDS) kept.splice(1, 1);

  const withHours = videoEndSeconds > 3600;
  return kept
    .map(
      (chapter) =>
        `${formatTimestamp(chapter.startSeconds, { withHours, padMinutes: true })} ${oneLine(chapter.title)}`,
    )
    .join("\n");
}

function oneLine(title: string): string {
  return title.replace(/\s+/g, " ").trim() || "Chapter";
}
