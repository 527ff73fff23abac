"use client";

import { useRouter } from "next/navigation";
import { useCallback, useRef, useState } from "react";
import { ClipCard } from "@/components/clips/clip-card";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cx } from "@/components/ui/cx";
import { EmptyState } from "@/components/ui/empty-state";
import { CLEAR_OF_STICKY_HEADER } from "@/components/ui/sticky-header";
import { useRefreshingMediaUrl } from "@/components/ui/use-refreshing-media-url";
import { formatCount } from "@/lib/format-count";
import type { ClipDetail } from "@/server/clips/get-clip";
import type { VideoView } from "@/server/videos/to-video-view";
import { videoApi } from "../video-api";
import { CaptionsPanel } from "./captions-panel";
import { ChaptersPanel } from "./chapters-panel";
import { deletedClipKey, withoutDeletedClips } from "./deleted-clips";
import { InterestTimeline, type TimelineChapter, type TimelineClip } from "./interest-timeline";

/**
 * The finished video: the source player with the interest timeline under it, the chapters
 * beside it, and the clips below. Everything that names a moment — a timeline click, a
 * chapter, a clip's range or one of its reasons — plays the source from there.
 */
export function VideoStudio({
  videoId,
  captions,
  durationSeconds,
  sourceUrl,
  interestCurve,
  chapters,
  youtubeChapterText,
  clips,
  whyNoClips,
}: {
  videoId: string;
  captions: VideoView["captions"];
  durationSeconds: number;
  sourceUrl: string | null;
  interestCurve: { secondsPerValue: number; values: number[] } | null;
  chapters: TimelineChapter[];
  youtubeChapterText: string | null;
  clips: ClipDetail[];
  /** What the empty list says, when there are no clips. */
  whyNoClips: string;
}) {
  const playerRef = useRef<HTMLVideoElement>(null);
  const clipsHeading = useRef<HTMLHeadingElement>(null);
  const [currentSeconds, setCurrentSeconds] = useState(0);
  const [selectedClipId, setSelectedClipId] = useState<string | null>(null);
  // The page's source URL expires after 10–15 minutes; a player that fails asks for a fresh one.
  const fetchFreshSourceUrl = useCallback(
    async () => (await videoApi.sourceUrl(videoId)).source.url,
    [videoId],
  );
  const source = useRefreshingMediaUrl(sourceUrl, fetchFreshSourceUrl);
  const playable = source.url !== null && source.problem === null;
  // Clips deleted here leave at once; the page's data (the count, the header) follows.
  const router = useRouter();
  const [deletedClips, setDeletedClips] = useState<ReadonlySet<string>>(new Set());
  const shownClips = withoutDeletedClips(clips, deletedClips);
  const forgetClip = useCallback(
    (clipId: string) => {
      const deleted = clips.find((clip) => clip.clipId === clipId);
      if (deleted) setDeletedClips((current) => new Set(current).add(deletedClipKey(deleted)));
      router.refresh();
    },
    [clips, router],
  );
  // Clips as edited on this page (new ranges, new scores), so the timeline follows them. Their
  // places are those of the page's order (best first, from the server) until it is loaded again.
  const [latestClips, setLatestClips] = useState<Record<string, ClipDetail>>({});
  const timelineClips = shownClips.map((clip, index) => ({
    ...(latestClips[clip.clipId] ?? clip),
    place: index + 1,
  }));
  const rememberClip = useCallback((clip: ClipDetail) => {
    setLatestClips((current) =>
      current[clip.clipId] === clip ? current : { ...current, [clip.clipId]: clip },
    );
  }, []);

  const seek = useCallback((seconds: number) => {
    setCurrentSeconds(seconds);
    const player = playerRef.current;
    if (!player) return;
    player.currentTime = seconds;
    void player.play().catch(() => {
      // Autoplay refused (no user gesture yet): the player waits at the new position.
    });
    // Its scroll margin keeps the whole player clear of the sticky header.
    player.scrollIntoView({ behavior: "smooth", block: "nearest" });
  }, []);

  // A clip's marker plays the clip's moment in the source: the player, where it plays, stays in
  // view, and the card is only marked. With no source to play, the marker shows the card instead.
  const selectClip = useCallback(
    (clip: TimelineClip) => {
      setSelectedClipId(clip.clipId);
      seek(clip.startSeconds);
      if (!playable)
        document
          .getElementById(`clip-${clip.clipId}`)
          ?.scrollIntoView({ behavior: "smooth", block: "nearest" });
    },
    [playable, seek],
  );

  return (
    <div className="flex flex-col gap-6">
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="overflow-hidden lg:col-span-2">
          <div className="relative aspect-video bg-slate-950">
            {playable ? (
              // biome-ignore lint/a11y/useMediaCaption: the creator's own source video; captions live in the clips.
              <video
                ref={playerRef}
                aria-label="Source video"
                src={source.url ?? undefined}
                controls
                preload="metadata"
                playsInline
                className={cx("h-full w-full", CLEAR_OF_STICKY_HEADER)}
                onTimeUpdate={(event) => setCurrentSeconds(event.currentTarget.currentTime)}
                onSeeked={(event) => setCurrentSeconds(event.currentTarget.currentTime)}
                onError={source.mediaEvents.onError}
                onLoadedMetadata={(event) => {
                  source.mediaEvents.onLoadedMetadata(event);
                  // A video codec the browser lacks (HEVC from phones, in some browsers) raises
                  // no error: the sound plays under a black picture, whose width reads 0.
                  if (event.currentTarget.videoWidth === 0) source.reportUnplayable();
                }}
              />
            ) : (
              <div className="grid h-full place-items-center px-6 text-center text-sm text-slate-400">
                {source.problem === "unplayable"
                  ? "This browser cannot show the source file's video format. The clips below play everywhere."
                  : source.problem === "unavailable"
                    ? "The source video could not be loaded. Reload the page to try again."
                    : "The source video is not available."}
              </div>
            )}
          </div>
          <div className="px-4 pt-3 pb-4 sm:px-5">
            <div className="mb-1 flex items-baseline justify-between gap-2">
              <h2 className="text-sm font-semibold text-slate-900">Interest over time</h2>
              <p className="text-xs text-slate-500">
                {playable ? "Click to play from any moment" : "Click a marker to see its clip"}
              </p>
            </div>
            <InterestTimeline
              durationSeconds={durationSeconds}
              curve={interestCurve}
              chapters={chapters}
              clips={timelineClips}
              currentSeconds={currentSeconds}
              selectedClipId={selectedClipId}
              onSeek={seek}
              onSelectClip={selectClip}
            />
          </div>
        </Card>
        <div className="flex flex-col gap-6">
          <Card>
            <CardHeader
              title="Chapters"
              description={chapters.length > 0 ? formatCount(chapters.length, "chapter") : undefined}
            />
            <CardBody className="py-3">
              <ChaptersPanel
                chapters={chapters}
                youtubeText={youtubeChapterText}
                currentSeconds={currentSeconds}
                onSeek={seek}
              />
            </CardBody>
          </Card>
          <Card>
            <CardHeader title="Captions" />
            <CardBody className="py-3">
              <CaptionsPanel videoId={videoId} captions={captions} />
            </CardBody>
          </Card>
        </div>
      </div>

      <section aria-labelledby="clips-heading" className="flex flex-col gap-4">
        <div className="flex items-baseline justify-between gap-4">
          {/* Takes the focus after a clip is deleted: the button that asked went with it. */}
          <h2
            id="clips-heading"
            ref={clipsHeading}
            tabIndex={-1}
            className="shrink-0 text-lg font-semibold text-slate-900 focus:outline-none"
          >
            Clips <span className="text-slate-500">{shownClips.length}</span>
          </h2>
          <p className="text-right text-sm text-slate-500">
            Best first · scores are comparable across your videos
          </p>
        </div>
        {shownClips.length === 0 ? (
          <EmptyState title="No clips from this video" description={whyNoClips} />
        ) : (
          <div className="grid gap-4 xl:grid-cols-2">
            {shownClips.map((clip, index) => (
              <ClipCard
                // A newer version from the server (after new captions) starts the card afresh.
                key={`${clip.clipId}:${clip.version}`}
                initialClip={clip}
                place={index + 1}
                onSeek={seek}
                playerSeconds={playable ? currentSeconds : undefined}
                highlighted={clip.clipId === selectedClipId}
                onChange={rememberClip}
                onDeleted={forgetClip}
                focusAfterDelete={clipsHeading}
              />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
