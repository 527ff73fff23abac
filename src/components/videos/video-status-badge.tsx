import { Badge, type BadgeTone } from "@/components/ui/badge";
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

export function VideoStatusBadge({ status }: { status: VideoView["status"] }) {
  const label = LABELS[status];
  return <Badge tone={label.tone}>{label.text}</Badge>;
}
