import { pageErrorMessage } from "@/components/api/page-error-message";
import type { ClipOptions } from "@/engine/clip-options";
import type { ResumeInstructions } from "@/server/videos/resume-video-upload";
import type { VideoView } from "@/server/videos/to-video-view";
import type { SignedPart, UploadInstructions } from "@/server/videos/upload-instructions";

/**
 * The browser's side of the videos API (`docs/api.md`). Errors keep the server's code and
 * message, which are written for people (a 401's is written for scripts: pageErrorMessage).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

async function request<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      cache: "no-store",
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, "network", "The connection to Truss was lost.");
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = {};
  }
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string } }).error;
    throw new ApiError(
      response.status,
      error?.code ?? "unknown",
      pageErrorMessage(response.status, error?.message),
    );
  }
  return json as T;
}

export type { ResumeInstructions, SignedPart, UploadInstructions, VideoView };

export const videoApi = {
  list: (cursor?: string | null, signal?: AbortSignal) =>
    request<{ videos: VideoView[]; nextCursor: string | null }>(
      "GET",
      `/api/videos${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`,
      undefined,
      signal,
    ),
  createUpload: (
    body: { filename: string; contentType: string; sizeBytes: number; clipOptions?: ClipOptions },
    signal?: AbortSignal,
  ) => request<{ video: VideoView; upload: UploadInstructions }>("POST", "/api/videos", body, signal),
  resumeUpload: (videoId: string, signal?: AbortSignal) =>
    request<{ video: VideoView; upload: ResumeInstructions }>(
      "GET",
      `/api/videos/${videoId}/upload`,
      undefined,
      signal,
    ),
  signParts: (videoId: string, partNumbers: number[], signal?: AbortSignal) =>
    request<{ parts: SignedPart[] }>("POST", `/api/videos/${videoId}/upload-parts`, { partNumbers }, signal),
  recordPart: (videoId: string, partNumber: number, etag: string, signal?: AbortSignal) =>
    request<void>("PUT", `/api/videos/${videoId}/upload-parts/${partNumber}`, { etag }, signal),
  complete: (
    videoId: string,
    parts: { partNumber: number; etag: string }[] | undefined,
    signal?: AbortSignal,
  ) =>
    request<{ video: VideoView }>(
      "POST",
      `/api/videos/${videoId}/upload-complete`,
      parts ? { parts } : {},
      signal,
    ),
  importUrl: (url: string, clipOptions?: ClipOptions) =>
    request<{ video: VideoView }>("POST", "/api/videos/import", { url, clipOptions }),
  /** A freshly signed URL of the uploaded source, for a player whose URL has expired. */
  sourceUrl: (videoId: string) =>
    request<{ source: { url: string; expiresAt: string } }>(
      "GET",
      `/api/videos/${encodeURIComponent(videoId)}/source`,
    ),
  /** A freshly signed URL of the video's thumbnail (null without one), for an <img> whose URL expired. */
  thumbnailUrl: (videoId: string) =>
    request<{ thumbnail: { url: string; expiresAt: string } | null }>(
      "GET",
      `/api/videos/${encodeURIComponent(videoId)}/thumbnail`,
    ),
  /** Asks a ready video for other clips: it is analysed again from its stored signals. */
  recut: (videoId: string, clipOptions: ClipOptions) =>
    request<{ video: VideoView }>("PATCH", `/api/videos/${encodeURIComponent(videoId)}`, { clipOptions }),
  remove: (videoId: string) => request<void>("DELETE", `/api/videos/${videoId}`),
};
