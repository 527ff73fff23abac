"use client";

import { useCallback, useState } from "react";
import { Spinner } from "@/components/ui/spinner";
import { useRefreshingPictureUrl } from "@/components/ui/use-refreshing-media-url";
import { formatLength } from "@/lib/format-length";
import type { ClipView } from "@/server/clips/to-clip-view";
import { fetchClipPictureUrl, isRendering } from "./clip-api";
import { quotedTitle } from "./quoted-title";

/**
 * The clip's 9:16 picture: its thumbnail, turning into the animated preview on hover or focus.
 * Shows when a (re-)render is under way or failed. Clicking plays the clip. Both pictures load
 * lazily, maybe long after the page did, so an expired URL is swapped for a fresh one once;
 * a picture that still fails is left out (the dark frame, or the still thumbnail, shows).
 */
export function ClipPreview({
  clip,
  place,
  onPlay,
  size = "md",
}: {
  clip: Pick<
    ClipView,
    "clipId" | "title" | "rendered" | "status" | "durationSeconds" | "renderFailureReason"
  >;
  /**
   * Its place among the clips shown with it, best first (1 = best). Not the clip's `rank`, its
   * place in the analysis: a trim scores a clip again, and edited clips keep their rank
   * through a request for other clips, so ranks can come out of order or with gaps. Null shows
   * none: some of the clips it would be counted among are not loaded yet.
   */
  place: number | null;
  onPlay: () => void;
  size?: "sm" | "md";
}) {
  const [animated, setAnimated] = useState(false);
  const { clipId, rendered } = clip;
  const rendering = isRendering(clip);
  const previewType = rendered?.previewType ?? "image/webp";
  const thumbnail = useRefreshingPictureUrl(
    rendered?.thumbnailUrl ?? null,
    useCallback(() => fetchClipPictureUrl(clipId, "thumbnail"), [clipId]),
  );
  const preview = useRefreshingPictureUrl(
    rendered?.previewUrl ?? null,
    useCallback(() => fetchClipPictureUrl(clipId, { previewType }), [clipId, previewType]),
  );
  return (
    <button
      type="button"
      onClick={onPlay}
      onMouseEnter={() => setAnimated(true)}
      onMouseLeave={() => setAnimated(false)}
      onFocus={() => setAnimated(true)}
      onBlur={() => setAnimated(false)}
      disabled={!rendered}
      className="group relative block aspect-[9/16] w-full overflow-hidden rounded-xl bg-slate-900 text-left shadow-sm ring-1 ring-slate-900/5 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 disabled:cursor-default"
      aria-label={
        rendered ? `Play ${quotedTitle(clip.title)}` : `${quotedTitle(clip.title)} is not rendered yet`
      }
    >
      {thumbnail.url && !thumbnail.problem && (
        // biome-ignore lint/performance/noImgElement: presigned storage URLs, not optimisable assets.
        <img
          src={thumbnail.url}
          alt=""
          className="absolute inset-0 h-full w-full object-cover transition-transform duration-300 group-hover:scale-[1.02]"
          loading="lazy"
          {...thumbnail.imageEvents}
        />
      )}
      {preview.url &&
        !preview.problem &&
        animated &&
        (previewType === "video/mp4" ? (
          <video
            src={preview.url}
            muted
            loop
            autoPlay
            playsInline
            className="absolute inset-0 h-full w-full object-cover"
            {...preview.videoEvents}
          />
        ) : (
          // biome-ignore lint/performance/noImgElement: an animated WebP, which next/image would freeze.
          <img
            src={preview.url}
            alt=""
            className="absolute inset-0 h-full w-full object-cover"
            {...preview.imageEvents}
          />
        ))}
      {place !== null && (
        <span className="absolute inset-x-0 top-0 flex items-start justify-between p-2">
          <span className="rounded-md bg-slate-950/70 px-1.5 py-0.5 text-xs font-semibold text-white backdrop-blur">
            #{place}
          </span>
        </span>
      )}
      <span className="absolute inset-x-0 bottom-0 flex items-end justify-end bg-gradient-to-t from-slate-950/70 to-transparent p-2 pt-8">
        <span className="rounded bg-slate-950/60 px-1.5 py-0.5 text-xs font-medium tabular-nums text-white">
          {formatLength(rendered?.durationSeconds ?? clip.durationSeconds)}
        </span>
      </span>
      {rendered && !rendering && (
        <span className="absolute inset-0 grid place-items-center opacity-0 transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100">
          <span
            className={`grid place-items-center rounded-full bg-white/90 text-slate-900 shadow-lg ${size === "sm" ? "h-10 w-10" : "h-14 w-14"}`}
          >
            <svg viewBox="0 0 20 20" className="ml-0.5 h-1/2 w-1/2" fill="currentColor" aria-hidden="true">
              <path d="M6.3 3.2A1 1 0 0 0 4.8 4v12a1 1 0 0 0 1.5.8l9.6-6a1 1 0 0 0 0-1.7l-9.6-6Z" />
            </svg>
          </span>
        </span>
      )}
      {rendering && (
        <span
          className={`absolute inset-0 flex flex-col items-center justify-center gap-2 text-center text-xs font-medium text-white ${rendered ? "bg-slate-950/55" : "bg-slate-800"}`}
        >
          <Spinner className="h-6 w-6" label="Rendering" />
          {clip.status === "RENDERING"
            ? rendered
              ? "Rendering the new version…"
              : "Rendering…"
            : rendered
              ? "New version queued"
              : "Waiting to render"}
        </span>
      )}
      {clip.status === "FAILED" && (
        <span className="absolute inset-x-2 bottom-10 rounded-md bg-red-600/90 px-2 py-1 text-xs font-medium text-white">
          {clip.renderFailureReason ?? "This render failed."}
        </span>
      )}
    </button>
  );
}
