import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { ButtonLink } from "@/components/ui/button";
import { describeClipRequest } from "@/components/videos/clip-options-choices";
import { FailedVideoNotice } from "@/components/videos/video-detail/failed-video-notice";
import { OtherClipsNotice } from "@/components/videos/video-detail/other-clips-notice";
import { clipRangesOf } from "@/components/videos/video-detail/other-clips-outcome";
import { ProcessingProgress } from "@/components/videos/video-detail/processing-progress";
import { RecutControl } from "@/components/videos/video-detail/recut-control";
import { VideoStudio } from "@/components/videos/video-detail/video-studio";
import { VideoStatusBadge } from "@/components/videos/video-status-badge";
import { VideosAutoRefresh } from "@/components/videos/videos-auto-refresh";
import type { VideoStatus } from "@/db/repos/video-repo";
import { DEFAULT_CLIP_OPTIONS } from "@/engine/clip-options";
import { formatLength } from "@/lib/format-length";
import { isTerminalStatus } from "@/lib/video-status";
import { requireCurrentCreator } from "@/server/auth/get-current-creator";
import { getVideoStudio } from "@/server/clips/get-video-studio";
import { AppError } from "@/server/errors";
import { getRuntime } from "@/server/runtime";

export const metadata: Metadata = { title: "Video" };
export const dynamic = "force-dynamic";

type ProcessingStatus = Exclude<VideoStatus, "READY" | "FAILED">;
const isProcessing = (status: VideoStatus): status is ProcessingStatus => !isTerminalStatus(status);

/** A video that is not the creator's, or no longer there, gets the page's own 404. */
function notFoundIfMissing(error: unknown): never {
  if (error instanceof AppError && error.code === "not_found") notFound();
  throw error;
}

export default async function VideoPage({ params }: { params: Promise<{ videoId: string }> }) {
  const creator = await requireCurrentCreator();
  const { creatorId } = creator;
  const { videoId } = await params;
  const studio = await getVideoStudio({ runtime: getRuntime(), creatorId, videoId }).catch(notFoundIfMissing);
  const { video } = studio;
  const probe = video.probe;
  // While a ready video is analysed again for other clips, its clips, player and timeline stay.
  const showStudio = video.status === "READY" || (isProcessing(video.status) && studio.clips.length > 0);
  const clipRanges = clipRangesOf(studio.clips);

  return (
    <div className="flex flex-col gap-6">
      <div>
        <Link href="/videos" className="text-sm font-medium text-slate-500 hover:text-slate-900">
          ← Videos
        </Link>
        <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="min-w-0">
            <h1
              dir="auto"
              className="text-2xl font-bold tracking-tight [overflow-wrap:anywhere] text-slate-900"
            >
              {video.filename}
            </h1>
            <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-500">
              <VideoStatusBadge video={video} />
              {probe && <span>{formatLength(probe.durationSeconds)}</span>}
              {probe && (
                <span>
                  {probe.width}×{probe.height}
                  {probe.fps > 0 ? ` · ${Math.round(probe.fps)} fps` : ""}
                  {probe.dynamicRange !== "sdr" && (
                    <span title={`${probe.dynamicRange.toUpperCase()}; clips are tone-mapped to SDR`}>
                      {" "}
                      · HDR
                    </span>
                  )}
                </span>
              )}
              {probe && !probe.hasAudio && <span>No audio</span>}
              {video.status !== "FAILED" && (
                <span>
                  {describeClipRequest(
                    video.clipOptions,
                    video.status === "READY" ? video.clipCount : null,
                    studio.clips.filter((clip) => clip.edited).length,
                  )}
                </span>
              )}
              {video.analysis && (
                <span>
                  {video.analysis.analyzer === "gemini"
                    ? "Analyzed with Gemini"
                    : "Analyzed from sound and picture"}
                </span>
              )}
            </div>
          </div>
          {video.status === "READY" && (
            <div className="flex shrink-0 gap-2">
              <RecutControl
                videoId={video.videoId}
                clipOptions={video.clipOptions}
                defaults={DEFAULT_CLIP_OPTIONS}
                updatedAt={video.updatedAt}
                clips={clipRanges}
              />
              <ButtonLink href="/clips?sort=score" variant="secondary" size="sm">
                All clips by score
              </ButtonLink>
            </div>
          )}
        </div>
      </div>

      {/* Rendered whatever the status, so that it follows the video back to READY. */}
      <OtherClipsNotice
        videoId={video.videoId}
        status={video.status}
        updatedAt={video.updatedAt}
        clips={clipRanges}
      />

      {video.analysis?.fallbackReason && (
        <Alert tone="warning" title="Gemini's answer could not be used">
          {video.analysis.fallbackReason} The clips below come from the local analysis of sound and picture.
        </Alert>
      )}

      {video.status === "FAILED" && (
        <FailedVideoNotice
          videoId={video.videoId}
          filename={video.filename}
          failureReason={video.failureReason}
        />
      )}

      {isProcessing(video.status) && (
        <>
          <ProcessingProgress
            status={video.status}
            origin={video.origin}
            stage={video.stage}
            progressPercent={video.progressPercent}
            clipsShown={showStudio}
            // Only a video's first processing ends with an email (see email-video-outcome.ts).
            firstProcessing={video.processedAt === null}
            emailWhenDoneTo={creator.emailWhenClipsReady ? creator.email : null}
          />
          {/* Seldom while it only waits for uploaded bytes that may never come (sent from another tab). */}
          <VideosAutoRefresh videos={[{ id: video.videoId, status: video.status, origin: video.origin }]} />
        </>
      )}

      {showStudio && (
        <VideoStudio
          videoId={video.videoId}
          captions={video.captions}
          durationSeconds={probe?.durationSeconds ?? 0}
          sourceUrl={studio.sourceUrl}
          interestCurve={studio.interestCurve}
          chapters={studio.chapters}
          youtubeChapterText={studio.youtubeChapterText}
          // The analysis says why it made none (the stage); with none said, the creator deleted them.
          whyNoClips={
            video.stage
              ? "Nothing in it stood out enough to cut a clip: the sound and picture stay even throughout."
              : "You deleted its clips. “Other clips…” finds its best moments again."
          }
          clips={studio.clips}
        />
      )}
    </div>
  );
}
