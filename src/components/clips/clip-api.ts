import { pageErrorMessage } from "@/components/api/page-error-message";
import type { LayoutChoice } from "@/engine/types";
import type { ClipDetail } from "@/server/clips/get-clip";
import type { ClipPictureUrls } from "@/server/clips/get-clip-picture-urls";
import type { ClipSort } from "@/server/clips/list-clips";
import type { ClipView } from "@/server/clips/to-clip-view";

/** Browser-side calls to /api/clips/:id, with the API's error message when there is one. */
export class ClipApiError extends Error {}

async function errorOf(response: Response): Promise<ClipApiError> {
  const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
  return new ClipApiError(pageErrorMessage(response.status, body.error?.message));
}

export async function fetchClip(clipId: string, signal?: AbortSignal): Promise<ClipDetail> {
  const response = await fetch(`/api/clips/${encodeURIComponent(clipId)}`, { signal, cache: "no-store" });
  if (!response.ok) throw await errorOf(response);
  return ((await response.json()) as { clip: ClipDetail }).clip;
}

/** The page of the creator's clips after `cursor` (GET /api/clips: one Query per page). */
export async function fetchClipsPage(options: {
  sort: ClipSort;
  minScore: number | undefined;
  cursor: string;
  signal?: AbortSignal;
}): Promise<{ clips: ClipView[]; nextCursor: string | null }> {
  const search = new URLSearchParams({ sort: options.sort, cursor: options.cursor });
  if (options.minScore !== undefined) search.set("minScore", String(options.minScore));
  const response = await fetch(`/api/clips?${search.toString()}`, {
    signal: options.signal,
    cache: "no-store",
  });
  if (!response.ok) throw await errorOf(response);
  const body = (await response.json()) as { clips: ClipView[]; nextCursor: string | null };
  return { clips: body.clips, nextCursor: body.nextCursor };
}

/**
 * Where a Download link points: a route that answers with a URL signed at that moment. A loaded
 * clip's `media.downloadUrl` expires while the page stays open, so pages never link to it.
 */
export const clipDownloadHref = (clipId: string) => `/api/clips/${encodeURIComponent(clipId)}/download`;

/** A freshly signed URL of the clip's newest render, for a player whose URL has expired. */
export async function fetchClipVideoUrl(clipId: string): Promise<string | null> {
  return (await fetchClip(clipId)).media?.videoUrl ?? null;
}

/**
 * A freshly signed URL of the clip's thumbnail or animated preview, for an <img> or preview whose
 * URL expired before it first loaded. Null when there is none the element could show: a newer
 * render's preview in another format than `previewType`.
 */
export async function fetchClipPictureUrl(
  clipId: string,
  picture: "thumbnail" | { previewType: ClipPictureUrls["previewType"] },
): Promise<string | null> {
  const response = await fetch(`/api/clips/${encodeURIComponent(clipId)}/pictures`, { cache: "no-store" });
  if (!response.ok) throw await errorOf(response);
  const { pictures } = (await response.json()) as { pictures: ClipPictureUrls };
  if (picture === "thumbnail") return pictures.thumbnailUrl;
  return pictures.previewType === picture.previewType ? pictures.previewUrl : null;
}

export async function saveClipEdit(options: {
  clipId: string;
  startSeconds?: number;
  endSeconds?: number;
  layout: LayoutChoice;
  expectedVersion: number;
}): Promise<ClipDetail> {
  const { clipId, ...edit } = options;
  const response = await fetch(`/api/clips/${encodeURIComponent(clipId)}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(edit),
  });
  if (!response.ok) throw await errorOf(response);
  return ((await response.json()) as { clip: ClipDetail }).clip;
}

/** Discards the clip and its render (only once its video is ready: 409 before). */
export async function deleteClipRequest(clipId: string): Promise<void> {
  const response = await fetch(`/api/clips/${encodeURIComponent(clipId)}`, { method: "DELETE" });
  // Already gone (another tab): what was asked for.
  if (!response.ok && response.status !== 404) throw await errorOf(response);
}

/** True when the clip owes a render its page should wait for. */
export const isRendering = (clip: Pick<ClipDetail, "status">) =>
  clip.status === "PENDING" || clip.status === "RENDERING";
