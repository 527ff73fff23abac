"use client";

import { type RefObject, useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";
import { CLEAR_OF_STICKY_HEADER } from "@/components/ui/sticky-header";
import { formatTimestamp } from "@/engine/format-timestamp";
import { formatLength } from "@/lib/format-length";
import type { ClipDetail } from "@/server/clips/get-clip";
import { clipDownloadHref, fetchClip, saveClipEdit } from "./clip-api";
import { ClipEditor } from "./clip-editor";
import { ClipPlayerDialog } from "./clip-player-dialog";
import { ClipPreview } from "./clip-preview";
import { PREVIOUS_VERSION_DOWNLOAD, previousRenderOf, previousVersionNote } from "./previous-render";
import { ScoreBreakdown } from "./score-breakdown";
import { ScoreRing } from "./score-ring";
import { SCORE_BAND_LABELS, scoreBand } from "./score-style";
import { useClipPolling } from "./use-clip-polling";

const PLATFORM_LABELS = {
  youtube: "YouTube",
  tiktok: "TikTok",
  twitch: "Twitch",
  discord: "Discord",
} as const;

/**
 * One clip on its video's page: the 9:16 preview (click to play), the score with its breakdown,
 * the reasons (each timestamp seeks the source player), download, and editing of the range and layout.
 */
export function ClipCard({
  initialClip,
  place,
  onSeek,
  playerSeconds,
  highlighted = false,
  onChange,
  onDeleted,
  focusAfterDelete,
}: {
  initialClip: ClipDetail;
  /** Its place among the video's clips, best first (see ClipPreview). */
  place: number;
  onSeek?: (seconds: number) => void;
  /** Where the source player on the page is, when there is one ("set from the player"). */
  playerSeconds?: number;
  highlighted?: boolean;
  /** Told about every newer version of the clip (a saved range, a finished render). */
  onChange?: (clip: ClipDetail) => void;
  /** Told when the creator deleted the clip; without it the card offers no delete. */
  onDeleted?: (clipId: string) => void;
  /** Takes the focus once the deleted clip's card (and the button that asked) is gone. */
  focusAfterDelete?: RefObject<HTMLElement | null>;
}) {
  const [clip, setClip] = useClipPolling(initialClip);
  useEffect(() => {
    onChange?.(clip);
  }, [clip, onChange]);
  const [editing, setEditing] = useState(false);
  // Closing the editor gives the focus back to the Edit button it was opened from.
  const editButton = useRef<HTMLButtonElement>(null);
  const closeEditor = () => {
    setEditing(false);
    requestAnimationFrame(() => editButton.current?.focus());
  };
  const [playing, setPlaying] = useState(false);
  const band = scoreBand(clip.score);
  // While a newer version is owed, the download and the player still have the previous render.
  const previousRender = previousRenderOf(clip);

  // After a failed render: once at a time (a second click would only meet a version conflict),
  // and a refusal is shown, not swallowed.
  const [renderingAgain, setRenderingAgain] = useState(false);
  const [renderAgainError, setRenderAgainError] = useState<string | null>(null);
  const renderAgain = async () => {
    setRenderingAgain(true);
    setRenderAgainError(null);
    try {
      setClip(
        await saveClipEdit({ clipId: clip.clipId, layout: clip.layout, expectedVersion: clip.version }),
      );
    } catch (caught) {
      setRenderAgainError(caught instanceof Error ? caught.message : "The clip could not be rendered again.");
    } finally {
      setRenderingAgain(false);
    }
  };

  // Media URLs are short-lived: a page left open a long time fetches fresh ones before playing.
  const play = async () => {
    if (clip.media && Date.parse(clip.media.expiresAt) - Date.now() < 60_000) {
      setClip(await fetchClip(clip.clipId).catch(() => clip));
    }
    setPlaying(true);
  };

  // Named for what it does: a keyboard or screen-reader user meets several times in a row.
  const seekButton = (seconds: number, purpose: string) =>
    onSeek ? (
      <button
        type="button"
        onClick={() => onSeek(seconds)}
        aria-label={`Play the source from ${formatTimestamp(seconds)}: ${purpose}`}
        className="rounded px-1 font-mono text-xs font-medium text-brand-700 tabular-nums hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-brand-600"
        title="Play the source from here"
      >
        {formatTimestamp(seconds)}
      </button>
    ) : (
      <span className="font-mono text-xs text-slate-500 tabular-nums">{formatTimestamp(seconds)}</span>
    );

  return (
    <article
      id={`clip-${clip.clipId}`}
      className={cx(
        "flex flex-col gap-4 rounded-2xl border bg-white p-3 shadow-sm transition-shadow sm:flex-row",
        CLEAR_OF_STICKY_HEADER,
        highlighted ? "border-brand-500 ring-2 ring-brand-500/30" : "border-slate-200",
      )}
    >
      {/* On a phone, a preview the width of the screen would make each card two screens tall. */}
      <div className="w-full max-w-56 shrink-0 self-center sm:w-40 sm:max-w-none sm:self-auto">
        <ClipPreview clip={clip} place={place} onPlay={play} />
      </div>
      <div className="flex min-w-0 flex-1 flex-col gap-3 py-1 pr-1">
        <header className="flex items-start gap-3">
          <ScoreRing score={clip.score} />
          <div className="min-w-0 flex-1">
            <h3 dir="auto" className="line-clamp-2 text-sm font-semibold text-slate-900">
              {clip.title}
            </h3>
            <p className="mt-0.5 flex flex-wrap items-center gap-x-1 text-xs text-slate-500">
              {seekButton(clip.startSeconds, "where this clip starts")}
              <span aria-hidden="true">–</span>
              <span className="font-mono tabular-nums">{formatTimestamp(clip.endSeconds)}</span>
              <span aria-hidden="true">·</span>
              <span>{formatLength(clip.durationSeconds)}</span>
            </p>
            <div className="mt-1 flex flex-wrap gap-1">
              <Badge
                tone={
                  band === "strong"
                    ? "success"
                    : band === "good"
                      ? "brand"
                      : band === "fair"
                        ? "warning"
                        : "neutral"
                }
              >
                {SCORE_BAND_LABELS[band]}
              </Badge>
              {clip.edited && <Badge tone="neutral">Edited by you</Badge>}
              {clip.status === "PENDING" && <Badge tone="brand">Render queued</Badge>}
              {clip.status === "RENDERING" && <Badge tone="brand">Rendering</Badge>}
              {clip.status === "FAILED" && <Badge tone="danger">Render failed</Badge>}
            </div>
          </div>
        </header>

        {clip.hookLine && <p className="text-sm text-slate-700 italic">“{clip.hookLine}”</p>}

        <ScoreBreakdown subscores={clip.subscores} />

        {clip.reasons.length > 0 && (
          <ul className="flex flex-col gap-1 text-sm text-slate-700">
            {clip.reasons.map((reason) => (
              <li key={`${reason.atSeconds}-${reason.text}`} className="flex items-start gap-1.5">
                <span className="shrink-0 pt-px">{seekButton(reason.atSeconds, reason.text)}</span>
                <span className="min-w-0">{reason.text}</span>
              </li>
            ))}
          </ul>
        )}

        {clip.platformCopy && Object.keys(clip.platformCopy).length > 0 && (
          <details className="group rounded-lg bg-slate-50 px-3 py-2 text-sm">
            <summary className="cursor-pointer text-xs font-medium text-slate-700">
              Suggested titles and hashtags
            </summary>
            <dl className="mt-2 flex flex-col gap-2">
              {(Object.keys(PLATFORM_LABELS) as (keyof typeof PLATFORM_LABELS)[]).map((platform) => {
                const copy = clip.platformCopy?.[platform];
                if (!copy) return null;
                return (
                  <div key={platform}>
                    <dt className="text-xs font-semibold text-slate-500">{PLATFORM_LABELS[platform]}</dt>
                    <dd dir="auto" className="text-slate-800">
                      {copy.title}
                    </dd>
                    {copy.hashtags.length > 0 && (
                      <dd className="text-xs text-brand-700">
                        {copy.hashtags.map((tag) => `#${tag.replace(/^#/, "")}`).join(" ")}
                      </dd>
                    )}
                  </div>
                );
              })}
            </dl>
          </details>
        )}

        {editing ? (
          <ClipEditor
            clip={clip}
            playerSeconds={playerSeconds}
            onSaved={(saved) => {
              setClip(saved);
              closeEditor();
            }}
            onCancel={closeEditor}
            onDeleted={onDeleted && (() => onDeleted(clip.clipId))}
            focusAfterDelete={focusAfterDelete}
          />
        ) : (
          <div className="mt-auto flex flex-wrap gap-2">
            {clip.media ? (
              <a href={clipDownloadHref(clip.clipId)} className={buttonClasses("primary", "sm")} download>
                <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
                  <path d="M10 2.5a1 1 0 0 1 1 1v7.1l2.3-2.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 1.4-1.4L9 10.6V3.5a1 1 0 0 1 1-1ZM4 15a1 1 0 0 1 1 1v.5h10V16a1 1 0 1 1 2 0v1.5a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V16a1 1 0 0 1 1-1Z" />
                </svg>
                {previousRender ? PREVIOUS_VERSION_DOWNLOAD : "Download"}
              </a>
            ) : null}
            <button
              ref={editButton}
              type="button"
              className={buttonClasses("secondary", "sm")}
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
            {clip.canRenderAgain && (
              <Button variant="ghost" size="sm" loading={renderingAgain} onClick={renderAgain}>
                Render again
              </Button>
            )}
            {clip.media && previousRender && (
              <p className="w-full text-xs text-slate-500">{previousVersionNote(previousRender)}</p>
            )}
            {clip.canRenderAgain && renderAgainError && (
              <Alert tone="danger" className="w-full">
                {renderAgainError}
              </Alert>
            )}
          </div>
        )}
      </div>
      <ClipPlayerDialog
        open={playing}
        onClose={() => setPlaying(false)}
        clip={clip}
        footer={`Score ${clip.score} · #${place}`}
      />
    </article>
  );
}
