import { Badge } from "@/components/ui/badge";
import type { VideoView } from "./video-api";
import { videoStatusLabel } from "./video-status-label";

/** `interrupted`: the video waits for bytes that no page is sending (see videoStatusLabel). */
export function VideoStatusBadge({
  status,
  interrupted = false,
}: {
  status: VideoView["status"];
  interrupted?: boolean;
}) {
  const label = videoStatusLabel(status, { interrupted });
  return <Badge tone={label.tone}>{label.text}</Badge>;
}
