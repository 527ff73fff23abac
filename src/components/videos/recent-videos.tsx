"use client";

import Link from "next/link";
import { Card, CardHeader } from "@/components/ui/card";
import { useUploads } from "./uploads-provider";
import type { VideoView } from "./video-api";
import { VideoNameLink, VideoThumbnail } from "./video-links";
import { videoStanding } from "./video-standing";
import { VideoStatusBadge } from "./video-status-badge";

/**
 * The dashboard's newest videos: each with its picture, status and where its processing is. A
 * video this tab is uploading shows the upload's live progress, as the videos page does.
 */
export function RecentVideos({ videos }: { videos: VideoView[] }) {
  const { uploadsByVideo } = useUploads();
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
        {videos.map((video) => {
          const standing = videoStanding(video, uploadsByVideo.get(video.id));
          return (
            <li
              key={video.id}
              data-testid="recent-video"
              className="flex items-center gap-4 px-5 py-3 sm:px-6"
            >
              <VideoThumbnail video={video} className="h-12 w-20" />
              <div className="min-w-0 flex-1">
                <VideoNameLink video={video} />
                <p className="truncate text-xs text-slate-500" title={standing.text}>
                  {standing.text}
                </p>
              </div>
              <VideoStatusBadge video={video} interrupted={standing.kind === "interrupted"} />
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
