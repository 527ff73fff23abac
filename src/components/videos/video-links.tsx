import Link from "next/link";
import { cx } from "@/components/ui/cx";
import { OutlineIcon } from "@/components/ui/outline-icon";
import { formatClock } from "./format";
import type { VideoView } from "./video-api";
import { VideoThumbnailImage } from "./video-thumbnail-image";

/** A video camera outline: the placeholder for a video without a picture yet. */
export function VideoIcon({ className }: { className?: string }) {
  return (
    <OutlineIcon
      className={className}
      d="M15 10.5 20 7.5v9l-5-3M4.5 6h9A1.5 1.5 0 0 1 15 7.5v9a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 3 16.5v-9A1.5 1.5 0 0 1 4.5 6Z"
    />
  );
}

/** The video's thumbnail (or a placeholder) with its length, linking to the video's page. */
export function VideoThumbnail({ video, className }: { video: VideoView; className: string }) {
  return (
    <Link
      href={`/videos/${video.id}`}
      className={cx("relative block shrink-0 overflow-hidden rounded-md bg-slate-100", className)}
    >
      <VideoThumbnailImage
        videoId={video.id}
        url={video.thumbnailUrl}
        fallback={
          <div className="grid h-full w-full place-items-center text-slate-400">
            <VideoIcon className="h-6 w-6" />
          </div>
        }
      />
      {video.metadata && (
        <span className="absolute right-1 bottom-1 rounded bg-black/70 px-1 text-[11px] font-medium text-white">
          {formatClock(video.metadata.durationSeconds)}
        </span>
      )}
    </Link>
  );
}

/**
 * The video's whole file name, wrapped, linking to the video's page. Not cut short: two uploads
 * named alike differ at the end as often as not ("stream-part-1.mp4", "stream-part-2.mp4").
 */
export function VideoNameLink({ video }: { video: VideoView }) {
  return (
    <Link
      href={`/videos/${video.id}`}
      dir="auto"
      className="block text-sm font-medium [overflow-wrap:anywhere] text-slate-900 hover:underline"
    >
      {video.filename}
    </Link>
  );
}
