"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";
import { formatTimestamp } from "@/engine/format-timestamp";
import { formatCount } from "@/lib/format-count";
import { formatLength } from "@/lib/format-length";
import type { TimelineChapter } from "./interest-timeline";

/** YouTube ignores a description's chapter list with fewer. */
const YOUTUBE_MIN_CHAPTERS = 3;

/**
 * The video's chapters: each seeks the player, the one playing is marked, and the whole list
 * copies as YouTube chapter text (paste it into the video description) when YouTube would
 * show it.
 */
export function ChaptersPanel({
  chapters,
  youtubeText,
  currentSeconds,
  onSeek,
}: {
  chapters: TimelineChapter[];
  youtubeText: string | null;
  currentSeconds: number;
  onSeek: (seconds: number) => void;
}) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  // The text merges chapters under 10 s into their neighbours, so it may list fewer.
  const youtubeLineCount = youtubeText ? youtubeText.split("\n").length : 0;

  const copy = async () => {
    if (!youtubeText) return;
    try {
      await navigator.clipboard.writeText(youtubeText);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
    setTimeout(() => setCopied(null), 2_500);
  };

  if (chapters.length === 0) {
    return <p className="text-sm text-slate-500">No chapters were found for this video.</p>;
  }
  return (
    <div className="flex flex-col gap-3">
      <ol className="flex flex-col" aria-label="Chapters">
        {chapters.map((chapter, index) => {
          const playing = currentSeconds >= chapter.startSeconds && currentSeconds < chapter.endSeconds;
          // A shade darker on the playing chapter's tint, to keep WCAG's 4.5:1.
          const quietText = playing ? "text-slate-600" : "text-slate-500";
          return (
            <li key={chapter.startSeconds}>
              <button
                type="button"
                onClick={() => onSeek(chapter.startSeconds)}
                aria-current={playing ? "true" : undefined}
                className={cx(
                  "flex w-full items-baseline gap-3 rounded-md px-2 py-1.5 text-left text-sm transition-colors hover:bg-slate-50",
                  playing && "bg-brand-50 hover:bg-brand-50",
                )}
              >
                <span className={cx("w-5 shrink-0 text-xs tabular-nums", quietText)}>{index + 1}</span>
                <span className="w-14 shrink-0 font-mono text-xs text-brand-700 tabular-nums">
                  {formatTimestamp(chapter.startSeconds)}
                </span>
                <span
                  className={cx(
                    // Wrapped, not cut off: the panel is narrow beside the player, titles are not.
                    "min-w-0 flex-1 break-words",
                    playing ? "font-medium text-slate-900" : "text-slate-700",
                  )}
                >
                  {chapter.title}
                </span>
                <span className={cx("shrink-0 text-xs", quietText)}>
                  {formatLength(chapter.endSeconds - chapter.startSeconds)}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
      {youtubeText && youtubeLineCount < YOUTUBE_MIN_CHAPTERS && (
        <p className="border-t border-slate-100 pt-3 text-xs text-slate-500">
          YouTube shows chapters only when a description lists at least {YOUTUBE_MIN_CHAPTERS}, each 10 s or
          longer; this video has {formatCount(youtubeLineCount, "chapter")} that long.
        </p>
      )}
      {youtubeText && youtubeLineCount >= YOUTUBE_MIN_CHAPTERS && (
        <div className="flex flex-col gap-2 border-t border-slate-100 pt-3">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Button size="sm" variant="secondary" className="whitespace-nowrap" onClick={copy}>
              <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
                <path d="M7 3a2 2 0 0 0-2 2v1H4a2 2 0 0 0-2 2v7a2 2 0 0 0 2 2h7a2 2 0 0 0 2-2v-1h1a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2H7Zm6 11v1a.5.5 0 0 1-.5.5H4.5A.5.5 0 0 1 4 15V8a.5.5 0 0 1 .5-.5H5V12a2 2 0 0 0 2 2h6Zm-6-9h7v7H7V5Z" />
              </svg>
              Copy YouTube chapters
            </Button>
            <span role="status" className="text-xs text-slate-500">
              {copied === "yes"
                ? "Copied — paste it into the description"
                : copied === "failed"
                  ? "Copy failed; select the text below"
                  : ""}
            </span>
          </div>
          <details className="text-xs">
            <summary className="cursor-pointer text-slate-500">Show the text</summary>
            <pre className="mt-2 max-h-48 overflow-auto rounded-md bg-slate-50 p-2 font-mono whitespace-pre-wrap text-slate-700 select-all">
              {youtubeText}
            </pre>
          </details>
        </div>
      )}
    </div>
  );
}
