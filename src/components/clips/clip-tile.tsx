"use client";

import Link from "next/link";
import { formatTimestamp } from "@/engine/format-timestamp";
import type { ClipView } from "@/server/clips/to-clip-view";
import { ClipPreview } from "./clip-preview";
import { reasonBesideTitle } from "./reason-beside-title";
import { ScoreRing } from "./score-ring";

/**
 * A clip in a grid: its 9:16 preview (click plays it) with its place in the grid, best first
 * (none while that place could still change), its score, title, the video it comes from and a
 * reason its title does not already say.
 * A phone's two columns are narrow, so there the title takes the tile's full width and the
 * score sits beside the video's name; from `sm` up the score sits beside both.
 */
export function ClipTile({
  clip,
  place,
  onPlay,
}: {
  clip: ClipView;
  place: number | null;
  onPlay: (clip: ClipView) => void;
}) {
  const reason = reasonBesideTitle(clip.title, clip.reasons);
  return (
    // data-clip-id: after "Load more", focus moves to the first tile that came.
    <article className="flex flex-col gap-2" data-clip-id={clip.clipId}>
      <ClipPreview clip={clip} place={place} onPlay={() => onPlay(clip)} size="sm" />
      <div className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-2 gap-y-1.5 sm:items-start sm:gap-y-0.5">
        <h3
          dir="auto"
          className="col-span-2 line-clamp-2 text-sm leading-snug font-semibold wrap-anywhere text-slate-900 sm:col-span-1 sm:col-start-2 sm:row-start-1"
        >
          {clip.title}
        </h3>
        <div className="row-start-2 sm:col-start-1 sm:row-span-2 sm:row-start-1">
          <ScoreRing score={clip.score} size="sm" />
        </div>
        <Link
          href={`/videos/${clip.videoId}#clip-${clip.clipId}`}
          className="col-start-2 row-start-2 line-clamp-2 text-xs wrap-anywhere text-slate-500 hover:text-brand-700"
          title={`${clip.videoTitle}, from ${formatTimestamp(clip.startSeconds)}`}
        >
          {/* The video's name alone: the title already says when in it the clip is. */}
          {clip.videoTitle}
        </Link>
      </div>
      {reason && <p className="line-clamp-2 text-xs text-slate-600">{reason.text}</p>}
    </article>
  );
}
