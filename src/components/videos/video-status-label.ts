import type { BadgeTone } from "@/components/ui/badge";
import type { VideoView } from "./video-api";

const LABELS: Record<VideoView["status"], { text: string; tone: BadgeTone }> = {
  UPLOADING: { text: "Uploading", tone: "neutral" },
  UPLOADED: { text: "Checking", tone: "brand" },
  QUEUED: { text: "Queued", tone: "brand" },
  ANALYZING: { text: "Analyzing", tone: "brand" },
  RENDERING: { text: "Rendering", tone: "brand" },
  READY: { text: "Ready", tone: "success" },
  FAILED: { text: "Failed", tone: "danger" },
};

const INTERRUPTED = { text: "Interrupted", tone: "warning" } as const;

/**
 * A video's badge. The server only knows a video still waits for its bytes (UPLOADING); a page
 * that is not sending them knows the upload stopped, and says so, as the row's text does.
 */
export function videoStatusLabel(
  status: VideoView["status"],
  options: { interrupted?: boolean } = {},
): { text: string; tone: BadgeTone } {
  if (status === "UPLOADING" && options.interrupted) return INTERRUPTED;
  return LABELS[status];
}
