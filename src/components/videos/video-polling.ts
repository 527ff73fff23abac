import { isTerminalStatus, type VideoStatus } from "@/lib/video-status";

/** How often a page follows videos that move on by themselves (processing). */
export const PROCESSING_POLL_MS = 2_500;
/**
 * How often a page looks at videos that only wait for their bytes. An upload sent by another
 * tab (or one interrupted there) may sit in UPLOADING for a day before the sweep removes it:
 * worth a look now and then, not every few seconds.
 */
export const UPLOADING_POLL_MS = 30_000;

/**
 * The videos list's own polling: a video that is processing moves on by itself; one waiting for
 * its bytes only does while an upload in this tab sends them (`uploadingHere`).
 */
export function libraryNeedsPolling(options: {
  videos: readonly { id: string; status: VideoStatus }[];
  uploadsActive: boolean;
  uploadingHere: ReadonlySet<string>;
}): boolean {
  if (options.uploadsActive) return true;
  return options.videos.some((video) =>
    video.status === "UPLOADING" ? options.uploadingHere.has(video.id) : !isTerminalStatus(video.status),
  );
}

/**
 * How often a server-rendered page (the dashboard, a video's page) refreshes for these videos:
 * often while one is processing or being uploaded by this tab, seldom while they only wait for
 * bytes sent elsewhere (or by nobody any more), never once all are done.
 */
export function refreshIntervalFor(
  videos: readonly { id: string; status: VideoStatus }[],
  uploadingHere: ReadonlySet<string>,
): number | null {
  const movesSoon = (video: { id: string; status: VideoStatus }) =>
    video.status === "UPLOADING" ? uploadingHere.has(video.id) : !isTerminalStatus(video.status);
  if (videos.some(movesSoon)) return PROCESSING_POLL_MS;
  if (videos.some((video) => video.status === "UPLOADING")) return UPLOADING_POLL_MS;
  return null;
}
