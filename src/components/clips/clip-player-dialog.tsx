"use client";

import { type ReactNode, useCallback, useEffect, useRef } from "react";
import { buttonClasses } from "@/components/ui/button";
import { useRefreshingMediaUrl } from "@/components/ui/use-refreshing-media-url";
import { formatLength } from "@/lib/format-length";
import type { ClipDetail } from "@/server/clips/get-clip";
import { clipDownloadHref, fetchClipVideoUrl } from "./clip-api";
import { PREVIOUS_VERSION_DOWNLOAD, previousRenderOf, previousVersionNote } from "./previous-render";

/** What the dialog plays: the clip's newest render, which may be of an earlier edit. */
export type PlayableClip = Pick<ClipDetail, "clipId" | "title" | "revision" | "rendered" | "media">;

/**
 * A modal that plays one rendered clip at 9:16, with its download. Closes on Esc or backdrop
 * click. The player swaps in a fresh URL when its own expires; Download is always signed afresh.
 * While a newer render is owed, the download says it is the previous version, as the clip's card does.
 */
export function ClipPlayerDialog({
  open,
  onClose,
  clip,
  footer,
}: {
  open: boolean;
  onClose: () => void;
  clip: PlayableClip | null;
  footer?: ReactNode;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const title = clip?.title ?? "";
  // The newest render's URL, null before the first render.
  const videoUrl = clip?.media?.videoUrl ?? null;
  const durationSeconds = clip?.rendered?.durationSeconds;
  const previousRender = clip ? previousRenderOf(clip) : null;

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the native dialog closes on Esc; the click only catches the backdrop.
    <dialog
      ref={dialogRef}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === dialogRef.current) onClose();
      }}
      className="m-auto w-[min(92vw,26rem)] overflow-hidden rounded-2xl bg-slate-950 p-0 text-white shadow-2xl backdrop:bg-slate-950/70 backdrop:backdrop-blur-sm"
      aria-label={title}
    >
      {open && (
        <div className="flex flex-col">
          <div className="flex items-start justify-between gap-3 px-4 py-3">
            <div className="min-w-0">
              {/* Two lines, not one truncated: caption titles already end in their own "…". */}
              <p
                dir="auto"
                className="line-clamp-2 text-sm leading-snug font-semibold wrap-anywhere"
                title={title}
              >
                {title}
              </p>
              {durationSeconds !== undefined && (
                <p className="text-xs text-slate-400">{formatLength(durationSeconds)} · 1080×1920</p>
              )}
            </div>
            <button
              type="button"
              onClick={onClose}
              className="grid h-8 w-8 place-items-center rounded-full text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-white"
              aria-label="Close"
            >
              <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
                <path d="M5.3 4.3a1 1 0 0 0-1.4 1.4L8.6 10l-4.7 4.3a1 1 0 1 0 1.4 1.4L10 11.4l4.3 4.3a1 1 0 0 0 1.4-1.4L11.4 10l4.3-4.3a1 1 0 0 0-1.4-1.4L10 8.6 5.3 4.3Z" />
              </svg>
            </button>
          </div>
          <div className="aspect-[9/16] max-h-[75vh] w-full bg-black">
            {clip && videoUrl ? (
              // Another clip, or a newer render, starts a new player; a refreshed URL does not.
              <ClipVideo
                key={videoUrl}
                clipId={clip.clipId}
                videoUrl={videoUrl}
                posterUrl={clip.rendered?.thumbnailUrl}
              />
            ) : (
              <div className="grid h-full place-items-center text-sm text-slate-400">Not rendered yet</div>
            )}
          </div>
          <div className="flex items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0 text-xs text-slate-400">{footer}</div>
            {clip && videoUrl && (
              <a href={clipDownloadHref(clip.clipId)} className={buttonClasses("primary", "sm")} download>
                {previousRender ? PREVIOUS_VERSION_DOWNLOAD : "Download MP4"}
              </a>
            )}
          </div>
          {videoUrl && previousRender && (
            <p className="px-4 pb-3 text-xs text-slate-400">{previousVersionNote(previousRender)}</p>
          )}
        </div>
      )}
    </dialog>
  );
}

/** The rendered clip, playing at once; an expired URL is swapped for a fresh one where it was. */
function ClipVideo({
  clipId,
  videoUrl,
  posterUrl,
}: {
  clipId: string;
  videoUrl: string;
  posterUrl?: string;
}) {
  const fetchFreshVideoUrl = useCallback(() => fetchClipVideoUrl(clipId), [clipId]);
  const player = useRefreshingMediaUrl(videoUrl, fetchFreshVideoUrl);
  if (!player.url || player.problem) {
    return (
      <div className="grid h-full place-items-center px-6 text-center text-sm text-slate-400">
        This clip could not be loaded. Close it and try again.
      </div>
    );
  }
  return (
    <video
      src={player.url}
      poster={posterUrl}
      controls
      autoPlay
      playsInline
      className="h-full w-full object-contain"
      {...player.mediaEvents}
    />
  );
}
