import { isTerminalStatus } from "@/lib/video-status";
import type { VideoView } from "./video-api";
import { isImporting } from "./video-standing";

/** How often a page follows videos that move on by themselves (processing). */
export const PROCESSING_POLL_MS = 2_500;
/**
 * How often a page looks at videos that only wait for their bytes. An upload sent by another
 * tab (or one interrupted there) may sit in UPLOADING for a day before the sweep removes it:
 * worth a look now and then, not every few seconds.
 */
export const UPLOADING_POLL_MS = 30_000;

type PolledVideo = Pick<VideoView, "id" | "status" | "origin">;
/** The videos whose upload runs in this tab (the uploads by video, or a set of ids). */
export type UploadingHere = Pick<ReadonlySet<string>, "has">;

/**
 * Whether a video changes by itself soon: one that is processing does, and so does a URL import
 * (the worker downloads it); one waiting for uploaded bytes only while an upload in this tab
 * sends them (`uploadingHere`).
 */
function movesSoon(video: PolledVideo, uploadingHere: UploadingHere): boolean {
  if (video.status !== "UPLOADING") return !isTerminalStatus(video.status);
  return isImporting(video) || uploadingHere.has(video.id);
}

/** The videos list's own polling: while an upload runs here, or a video moves soon. */
export function libraryNeedsPolling(options: {
  videos: readonly PolledVideo[];
  uploadsActive: boolean;
  uploadingHere: UploadingHere;
}): boolean {
  if (options.uploadsActive) return true;
  return options.videos.some((video) => movesSoon(video, options.uploadingHere));
}

/**
 * How often a server-rendered page (the dashboard, a video's page) refreshes for these videos:
 * often while one is processing or being uploaded by this tab, seldom while they only wait for
 * bytes sent elsewhere (or by nobody any more), never once all are done.
 */
export function refreshIntervalFor(
  videos: readonly PolledVideo[],
  uploadingHere: UploadingHere,
): number | null {
  if (videos.some((video) => movesSoon(video, uploadingHere))) return PROCESSING_POLL_MS;
  if (videos.some((video) => video.status === "UPLOADING")) return UPLOADING_POLL_MS;
  return null;
}
