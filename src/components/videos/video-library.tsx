"use client";

import type { RefObject } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { formatBytes } from "@/lib/format-bytes";
import { formatCount } from "@/lib/format-count";
import { isTerminalStatus } from "@/lib/video-status";
import { DeleteVideoButton } from "./delete-video-button";
import { formatClock } from "./format";
import { ProgressBar } from "./progress-bar";
import type { VideoView } from "./video-api";
import { VideoNameLink, VideoThumbnail } from "./video-links";
import { VideoStatusBadge } from "./video-status-badge";

/** The creator's videos: thumbnail, name, length, status and progress; each links to its page. */
export function VideoLibrary({
  videos,
  uploadingHere,
  hasMore,
  loadingMore,
  onLoadMore,
  onDelete,
  error,
  focusAfterDelete,
}: {
  videos: VideoView[];
  /** Videos whose upload runs in this page (others in UPLOADING were interrupted). */
  uploadingHere: Set<string>;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onDelete: (videoId: string) => Promise<void>;
  error: string | null;
  /** Takes the focus once a deleted video's row (and its Delete button) is gone. */
  focusAfterDelete?: RefObject<HTMLElement | null>;
}) {
  if (videos.length === 0) {
    return (
      <EmptyState
        title="No videos yet"
        description="Upload a long video above; Truss will find its best moments and cut them into vertical clips."
      />
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {error && <Alert tone="warning">{error}</Alert>}
      <ul
        aria-label="Videos"
        className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm"
      >
        {videos.map((video) => (
          <VideoRow
            key={video.id}
            video={video}
            interrupted={video.status === "UPLOADING" && !uploadingHere.has(video.id)}
            onDelete={onDelete}
            focusAfterDelete={focusAfterDelete}
          />
        ))}
      </ul>
      {hasMore && (
        <div className="flex justify-center">
          <Button variant="secondary" loading={loadingMore} onClick={onLoadMore}>
            Load more
          </Button>
        </div>
      )}
    </div>
  );
}

function VideoRow({
  video,
  interrupted,
  onDelete,
  focusAfterDelete,
}: {
  video: VideoView;
  interrupted: boolean;
  onDelete: (videoId: string) => Promise<void>;
  focusAfterDelete?: RefObject<HTMLElement | null>;
}) {
  const details = [
    video.metadata ? formatClock(video.metadata.durationSeconds) : null,
    video.metadata ? `${video.metadata.width}×${video.metadata.height}` : null,
    video.sizeBytes !== null ? formatBytes(video.sizeBytes) : null,
    video.status === "READY" ? formatCount(video.clipCount, "clip") : null,
  ].filter(Boolean);

  // On a phone the name and details keep the width beside a small thumbnail, and the badge and
  // Delete go on a line of their own; from `sm` up they sit at the row's right, as before.
  return (
    <li
      data-testid="video-row"
      data-video-id={video.id}
      data-status={video.status}
      className="flex gap-3 px-4 py-3 sm:gap-4 sm:px-5 sm:py-4"
    >
      <VideoThumbnail video={video} className="h-12 w-20 sm:h-16 sm:w-28" />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
          <div className="min-w-0">
            <VideoNameLink video={video} />
            <p className="text-xs text-slate-500" data-testid="video-details">
              {details.join(" · ") || (video.origin === "import" ? "Imported from a URL" : "\u00a0")}
            </p>
          </div>
          <div className="flex shrink-0 items-center justify-between gap-2">
            <VideoStatusBadge status={video.status} interrupted={interrupted} />
            <DeleteVideoButton
              filename={video.filename}
              onDelete={() => onDelete(video.id)}
              focusAfterDelete={focusAfterDelete}
            />
          </div>
        </div>
        {video.status === "FAILED" && video.failureReason && (
          <p className="text-sm text-red-600">{video.failureReason}</p>
        )}
        {interrupted && (
          <p className="text-sm text-amber-700">
            Upload interrupted. Choose the same file again to resume where it stopped.
          </p>
        )}
        {!isTerminalStatus(video.status) && !interrupted && video.status !== "UPLOADING" && (
          <div className="flex items-center gap-3">
            <ProgressBar
              className="max-w-xs"
              label={`Progress of ${video.filename}`}
              percent={video.progressPercent}
            />
            <span className="text-xs text-slate-500" data-testid="video-stage">
              {video.stage ?? video.status.toLowerCase()}
            </span>
          </div>
        )}
      </div>
    </li>
  );
}
