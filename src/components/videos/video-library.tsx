"use client";

import type { RefObject } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";
import { EmptyState } from "@/components/ui/empty-state";
import { formatBytes } from "@/lib/format-bytes";
import { formatCount } from "@/lib/format-count";
import { DeleteVideoButton } from "./delete-video-button";
import { formatClock } from "./format";
import { ProgressBar } from "./progress-bar";
import type { VideoView } from "./video-api";
import { VideoNameLink, VideoThumbnail } from "./video-links";
import { isImporting, type UploadHere, type VideoStanding, videoStanding } from "./video-standing";
import { VideoStatusBadge } from "./video-status-badge";

/** The creator's videos: thumbnail, name, length, status and progress; each links to its page. */
export function VideoLibrary({
  videos,
  uploadsByVideo,
  highlightedVideoId = null,
  hasMore,
  loadingMore,
  onLoadMore,
  onDelete,
  error,
  focusAfterDelete,
}: {
  videos: VideoView[];
  /** This tab's uploads by video (an upload left UPLOADING by none of them was interrupted). */
  uploadsByVideo: ReadonlyMap<string, UploadHere>;
  /** The video just added from a URL: its row is marked so the creator sees where it went. */
  highlightedVideoId?: string | null;
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
            standing={videoStanding(video, uploadsByVideo.get(video.id))}
            highlighted={video.id === highlightedVideoId}
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
  standing,
  highlighted,
  onDelete,
  focusAfterDelete,
}: {
  video: VideoView;
  standing: VideoStanding;
  highlighted: boolean;
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
      data-highlighted={highlighted || undefined}
      className={cx(
        "flex gap-3 px-4 py-3 transition-colors sm:gap-4 sm:px-5 sm:py-4",
        highlighted && "bg-brand-50/60",
      )}
    >
      <VideoThumbnail video={video} className="h-12 w-20 sm:h-16 sm:w-28" />
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex flex-col gap-1.5 sm:flex-row sm:items-start sm:justify-between sm:gap-3">
          <div className="min-w-0">
            <VideoNameLink video={video} />
            <p className="text-xs text-slate-500" data-testid="video-details">
              {details.join(" · ") ||
                (video.origin === "import" && !isImporting(video) ? "Imported from a URL" : "\u00a0")}
            </p>
          </div>
          <div className="flex shrink-0 items-center justify-between gap-2">
            <VideoStatusBadge video={video} interrupted={standing.kind === "interrupted"} />
            <DeleteVideoButton
              filename={video.filename}
              onDelete={() => onDelete(video.id)}
              focusAfterDelete={focusAfterDelete}
            />
          </div>
        </div>
        {standing.kind === "failed" && <p className="text-sm text-red-600">{standing.text}</p>}
        {standing.kind === "interrupted" && <p className="text-sm text-amber-700">{standing.text}</p>}
        {/* An upload of this tab shows its progress in the upload panel above. */}
        {(standing.kind === "processing" || standing.kind === "importing") && (
          <div className="flex items-center gap-3">
            {standing.percent !== null && (
              <ProgressBar
                className="max-w-xs"
                label={`Progress of ${video.filename}`}
                percent={standing.percent}
              />
            )}
            <span className="text-xs text-slate-500" data-testid="video-stage">
              {standing.text}
            </span>
          </div>
        )}
      </div>
    </li>
  );
}
