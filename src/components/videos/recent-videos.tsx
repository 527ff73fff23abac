import Link from "next/link";
import { Card, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/lib/format-count";
import type { VideoView } from "./video-api";
import { VideoNameLink, VideoThumbnail } from "./video-links";
import { VideoStatusBadge } from "./video-status-badge";

/** The dashboard's newest videos: each with its picture, status and where its processing is. */
export function RecentVideos({ videos }: { videos: VideoView[] }) {
  return (
    <Card>
      <CardHeader
        title="Recent videos"
        actions={
          <Link href="/videos" className="text-sm font-medium text-brand-700 hover:underline">
            All videos
          </Link>
        }
      />
      <ul aria-label="Recent videos" className="divide-y divide-slate-100">
        {videos.map((video) => (
          <li key={video.id} data-testid="recent-video" className="flex items-center gap-4 px-5 py-3 sm:px-6">
            <VideoThumbnail video={video} className="h-12 w-20" />
            <div className="min-w-0 flex-1">
              <VideoNameLink video={video} />
              <p className="truncate text-xs text-slate-500">{summary(video)}</p>
            </div>
            <VideoStatusBadge status={video.status} />
          </li>
        ))}
      </ul>
    </Card>
  );
}

function summary(video: VideoView): string {
  if (video.status === "READY") return formatCount(video.clipCount, "clip");
  if (video.status === "FAILED") return video.failureReason ?? "Processing failed";
  if (video.status === "UPLOADING") return "Upload not finished";
  return `${video.stage ?? "Waiting"} · ${Math.round(video.progressPercent)}%`;
}
