import { formatTimestamp } from "@/engine/format-timestamp";
import { formatLength } from "@/lib/format-length";
import type { ClipView } from "@/server/clips/to-clip-view";

/**
 * What a Download saves while the clip owes a newer render (queued, rendering, or failed after
 * an edit or new captions): the previous render, kept until the new one is ready, and so not the
 * range, layout or captions the card now shows. Described by its own range and length, e.g.
 * "0:14–0:29, 15 s"; null when the render is the clip as it now is (or there is none yet).
 */
export function previousRenderOf(clip: Pick<ClipView, "revision" | "rendered">): string | null {
  const { rendered } = clip;
  if (!rendered || rendered.revision === clip.revision) return null;
  return `${formatTimestamp(rendered.startSeconds)}–${formatTimestamp(rendered.endSeconds)}, ${formatLength(rendered.durationSeconds)}`;
}

/** The download's label and the line under it while it is the previous render (card and player alike). */
export const PREVIOUS_VERSION_DOWNLOAD = "Download previous version";
export const previousVersionNote = (previousRender: string) =>
  `The download is the previous version (${previousRender}) until the new one is rendered.`;
