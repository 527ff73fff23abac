"use client";

import Link from "next/link";
import { formatTimestamp } from "@/engine/format-timestamp";
import type { ClipView } from "@/server/clips/to-clip-view";
import { ClipPreview } from "./clip-preview";
import { ScoreRing } from "./score-ring";

/**
 * A clip in a grid: its 9:16 preview (click plays it) with its place in the grid, best first,
 * its score, title and where it comes from.
 */
export function ClipTile({
  clip,
  place,
  onPlay,
}: {
  clip: ClipView;
  place: number;
  onPlay: (clip: ClipView) => void;
}) {
  const topReason = clip.reasons[0];
  return (
    <article className="flex flex-col gap-2">
      <ClipPreview clip={clip} place={place} onPlay={() => onPlay(clip)} size="sm" />
      <div className="flex items-start gap-2">
        <ScoreRing score={clip.score} size="sm" />
        <div className="min-w-0 flex-1">
          <h3 className="line-clamp-2 text-sm leading-snug font-semibold text-slate-900">{clip.title}</h3>
          <Link
            href={`/videos/${clip.videoId}#clip-${clip.clipId}`}
            className="mt-0.5 block truncate text-xs text-slate-500 hover:text-brand-700"
            title={clip.videoTitle}
          >
            {formatTimestamp(clip.startSeconds)} · {clip.videoTitle}
          </Link>
        </div>
      </div>
      {topReason && <p className="line-clamp-2 text-xs text-slate-600">{topReason.text}</p>}
    </article>
  );
}
