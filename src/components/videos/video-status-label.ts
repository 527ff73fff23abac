import type { BadgeTone } from "@/components/ui/badge";
import type { VideoView } from "./video-api";
import { isImporting } from "./video-standing";

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
const IMPORTING = { text: "Importing", tone: "brand" } as const;

/**
 * A video's badge. The server only knows a video still waits for its bytes (UPLOADING). An
 * import's bytes come from the worker, which carries on by itself; an upload's come from a
 * page, and a page that is not sending them knows the upload stopped, and says so, as the
 * row's text does (see videoStanding).
 */
export function videoStatusLabel(
  video: Pick<VideoView, "status" | "origin">,
  options: { interrupted?: boolean } = {},
): { text: string; tone: BadgeTone } {
  if (isImporting(video)) return IMPORTING;
  if (video.status === "UPLOADING" && options.interrupted) return INTERRUPTED;
  return LABELS[video.status];
}
