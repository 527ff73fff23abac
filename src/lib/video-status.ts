/**
 * A video's statuses, in the order a video moves through them. Kept apart from the repository
 * (and free of server code) so client components share the same list and terminal check.
 */
export const VIDEO_STATUSES = [
  "UPLOADING",
  "UPLOADED",
  "QUEUED",
  "ANALYZING",
  "RENDERING",
  "READY",
  "FAILED",
] as const;
export type VideoStatus = (typeof VIDEO_STATUSES)[number];

/** Statuses a video does not leave by itself: nothing left to poll for. */
const TERMINAL_VIDEO_STATUSES: readonly VideoStatus[] = ["READY", "FAILED"];
export const isTerminalStatus = (status: VideoStatus) => TERMINAL_VIDEO_STATUSES.includes(status);
