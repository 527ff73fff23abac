import { Badge } from "@/components/ui/badge";
import type { VideoView } from "./video-api";
import { videoStatusLabel } from "./video-status-label";

/** `interrupted`: the video waits for bytes that no page is sending (see videoStatusLabel). */
export function VideoStatusBadge({
  video,
  interrupted = false,
}: {
  video: Pick<VideoView, "status" | "origin">;
  interrupted?: boolean;
}) {
  const label = videoStatusLabel(video, { interrupted });
  return <Badge tone={label.tone}>{label.text}</Badge>;
}
