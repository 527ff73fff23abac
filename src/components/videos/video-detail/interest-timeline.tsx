"use client";

import { type KeyboardEvent, type PointerEvent, useEffect, useRef, useState } from "react";
import { SCORE_BAND_COLORS, scoreBand } from "@/components/clips/score-style";
import { formatTimestamp } from "@/engine/format-timestamp";
import { timelineKeySeconds } from "./timeline-keys";
import { markerRows, tickSeconds } from "./timeline-layout";

export type TimelineClip = {
  clipId: string;
  /** Its place among the video's clips, best first (1 = best), as its card shows it. */
  place: number;
  score: number;
  startSeconds: number;
  endSeconds: number;
};
export type TimelineChapter = { startSeconds: number; endSeconds: number; title: string };

const PLOT_WIDTH = 1000;
const PLOT_HEIGHT = 100;
/** A clip marker's width with its ring and a little air (two digits at 11 px): what it covers. */
const MARKER_WIDTH_PX = 28;
/** One row of clip markers (h-6). */
const MARKER_ROW_PX = 24;

/**
 * The video's interest over time: the curve the engine ranked moments by, the clips it cut
 * (coloured by score, numbered best first) and the chapters as bands beneath. Clicking anywhere
 * seeks the player there; clicking a clip's number selects that clip. Arrow keys step 5 s.
 */
export function InterestTimeline({
  durationSeconds,
  curve,
  chapters,
  clips,
  currentSeconds,
  selectedClipId,
  onSeek,
  onSelectClip,
}: {
  durationSeconds: number;
  curve: { secondsPerValue: number; values: number[] } | null;
  chapters: TimelineChapter[];
  clips: TimelineClip[];
  currentSeconds: number;
  selectedClipId: string | null;
  onSeek: (seconds: number) => void;
  /** A clip's marker was clicked: the page decides what to show (see VideoStudio). */
  onSelectClip: (clip: TimelineClip) => void;
}) {
  const plotRef = useRef<HTMLDivElement>(null);
  const [hoverSeconds, setHoverSeconds] = useState<number | null>(null);
  // Close clips' markers would cover each other: the plot's width says how close is too close.
  const [plotWidthPx, setPlotWidthPx] = useState(600);
  useEffect(() => {
    const plot = plotRef.current;
    if (!plot) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry && entry.contentRect.width > 0) setPlotWidthPx(entry.contentRect.width);
    });
    observer.observe(plot);
    return () => observer.disconnect();
  }, []);
  const duration = Math.max(durationSeconds, 1);
  const percentOf = (seconds: number) => `${Math.min(100, Math.max(0, (seconds / duration) * 100))}%`;
  const xOf = (seconds: number) => (Math.min(duration, Math.max(0, seconds)) / duration) * PLOT_WIDTH;

  const secondsAt = (clientX: number) => {
    const box = plotRef.current?.getBoundingClientRect();
    if (!box || box.width === 0) return 0;
    return Math.min(duration, Math.max(0, ((clientX - box.left) / box.width) * duration));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const seconds = timelineKeySeconds({
      key: event.key,
      shiftKey: event.shiftKey,
      currentSeconds,
      durationSeconds: duration,
    });
    if (seconds === null) return;
    onSeek(seconds);
    event.preventDefault();
  };

  const curvePath = (() => {
    if (!curve || curve.values.length === 0) return null;
    const points = curve.values.map((value, index) => {
      const middleSeconds = (index + 0.5) * curve.secondsPerValue;
      return `${xOf(middleSeconds).toFixed(1)},${(PLOT_HEIGHT - 4 - value * (PLOT_HEIGHT - 12)).toFixed(1)}`;
    });
    return `M0,${PLOT_HEIGHT} L${points.join(" L")} L${PLOT_WIDTH},${PLOT_HEIGHT} Z`;
  })();

  const ticks = tickSeconds(duration);

  const rows = markerRows(
    clips.map((clip) => ({
      place: clip.place,
      centreShare: (clip.startSeconds + clip.endSeconds) / 2 / duration,
    })),
    MARKER_WIDTH_PX / plotWidthPx,
  );

  return (
    <div className="select-none">
      {/* Clip numbers, above the plot. */}
      <div className="relative" style={{ height: (Math.max(0, ...rows) + 1) * MARKER_ROW_PX }}>
        {clips.map((clip, index) => (
          <button
            key={clip.clipId}
            type="button"
            onClick={() => onSelectClip(clip)}
            style={{
              left: percentOf((clip.startSeconds + clip.endSeconds) / 2),
              top: (rows[index] ?? 0) * MARKER_ROW_PX,
              backgroundColor: SCORE_BAND_COLORS[scoreBand(clip.score)],
            }}
            className={`absolute -translate-x-1/2 rounded-full px-1.5 py-0.5 text-[11px] leading-4 font-semibold text-white shadow-sm ring-2 transition-transform hover:scale-110 focus-visible:outline-2 focus-visible:outline-brand-600 ${
              selectedClipId === clip.clipId ? "z-10 scale-110 ring-slate-900" : "ring-white"
            }`}
            title={`Clip #${clip.place} · score ${clip.score} · ${formatTimestamp(clip.startSeconds)}–${formatTimestamp(clip.endSeconds)}`}
            aria-label={`Clip ${clip.place}, score ${clip.score}, from ${formatTimestamp(clip.startSeconds)}`}
          >
            {clip.place}
          </button>
        ))}
      </div>

      <div
        ref={plotRef}
        role="slider"
        tabIndex={0}
        aria-label="Interest timeline: click to play from that moment"
        aria-valuemin={0}
        aria-valuemax={Math.round(duration)}
        aria-valuenow={Math.round(currentSeconds)}
        aria-valuetext={formatTimestamp(currentSeconds)}
        onKeyDown={onKeyDown}
        onPointerMove={(event: PointerEvent<HTMLDivElement>) => setHoverSeconds(secondsAt(event.clientX))}
        onPointerLeave={() => setHoverSeconds(null)}
        onClick={(event) => onSeek(secondsAt(event.clientX))}
        className="relative h-28 cursor-crosshair overflow-hidden rounded-lg bg-white ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        <svg
          viewBox={`0 0 ${PLOT_WIDTH} ${PLOT_HEIGHT}`}
          preserveAspectRatio="none"
          className="absolute inset-0 h-full w-full"
          aria-hidden="true"
        >
          <defs>
            <linearGradient id="interest-fill" x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="#4f6bff" stopOpacity="0.45" />
              <stop offset="100%" stopColor="#4f6bff" stopOpacity="0.04" />
            </linearGradient>
          </defs>
          {chapters.map((chapter, index) => (
            <rect
              key={`${chapter.startSeconds}-band`}
              x={xOf(chapter.startSeconds)}
              y={0}
              width={Math.max(0, xOf(chapter.endSeconds) - xOf(chapter.startSeconds))}
              height={PLOT_HEIGHT}
              fill={index % 2 === 0 ? "#f8fafc" : "#ffffff"}
            />
          ))}
          {clips.map((clip) => (
            <rect
              key={`${clip.clipId}-range`}
              x={xOf(clip.startSeconds)}
              y={0}
              width={Math.max(1, xOf(clip.endSeconds) - xOf(clip.startSeconds))}
              height={PLOT_HEIGHT}
              fill={SCORE_BAND_COLORS[scoreBand(clip.score)]}
              fillOpacity={selectedClipId === clip.clipId ? 0.3 : 0.16}
            />
          ))}
          {curvePath && (
            <path
              d={curvePath}
              fill="url(#interest-fill)"
              stroke="#3b52e6"
              strokeWidth="1.5"
              vectorEffect="non-scaling-stroke"
              strokeLinejoin="round"
            />
          )}
          {chapters.slice(1).map((chapter) => (
            <line
              key={`${chapter.startSeconds}-edge`}
              x1={xOf(chapter.startSeconds)}
              x2={xOf(chapter.startSeconds)}
              y1={0}
              y2={PLOT_HEIGHT}
              stroke="#cbd5e1"
              strokeDasharray="3 3"
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </svg>
        {!curvePath && (
          <p className="absolute inset-0 grid place-items-center text-xs text-slate-500">
            No interest curve for this video
          </p>
        )}
        {/* Playhead and hover guide as HTML, so they stay one pixel wide at any size. */}
        <div
          className="pointer-events-none absolute inset-y-0 w-0.5 bg-slate-900"
          style={{ left: percentOf(currentSeconds) }}
        />
        {hoverSeconds !== null && (
          <div
            className="pointer-events-none absolute inset-y-0 w-px bg-slate-400"
            style={{ left: percentOf(hoverSeconds) }}
          >
            <span className="absolute top-1 left-1 rounded bg-slate-900 px-1 py-0.5 font-mono text-[10px] text-white tabular-nums">
              {formatTimestamp(hoverSeconds)}
            </span>
          </div>
        )}
      </div>

      {/* Chapter names under their bands, then the time axis. */}
      {chapters.length > 0 && (
        <div className="relative mt-1 h-5">
          {chapters.map((chapter) => (
            <button
              key={`${chapter.startSeconds}-label`}
              type="button"
              onClick={() => onSeek(chapter.startSeconds)}
              style={{
                left: percentOf(chapter.startSeconds),
                width: percentOf(chapter.endSeconds - chapter.startSeconds),
              }}
              className="absolute top-0 truncate border-l border-slate-300 px-1 text-left text-[11px] text-slate-500 hover:text-brand-700"
              title={`${formatTimestamp(chapter.startSeconds)} ${chapter.title}`}
            >
              {chapter.title}
            </button>
          ))}
        </div>
      )}
      <div className="relative mt-0.5 h-4 text-[10px] text-slate-500 tabular-nums">
        {ticks.map((seconds) => (
          <span
            key={seconds}
            className={`absolute ${seconds === 0 ? "" : seconds >= duration ? "-translate-x-full" : "-translate-x-1/2"}`}
            style={{ left: percentOf(seconds) }}
          >
            {formatTimestamp(seconds)}
          </span>
        ))}
      </div>
    </div>
  );
}
