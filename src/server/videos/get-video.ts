import "server-only";
import { findVideoChapters, type InterestCurve, type StoredChapter } from "@/db/repos/chapters-repo";
import { listClipsByVideo, summaryOf } from "@/db/repos/clip-repo";
import { bestFirst } from "@/server/clips/best-first";
import { type ClipView, toClipView } from "@/server/clips/to-clip-view";
import { type Runtime, tableOf } from "@/server/runtime";
import { findVideoOrThrow } from "./find-video-or-throw";
import { toVideoView, type VideoView } from "./to-video-view";

export type VideoDetailView = VideoView & {
  chapters: StoredChapter[];
  /** One value 0..1 per span of the video, for the timeline; null until analysed. */
  interestCurve: InterestCurve | null;
  /** Best first. */
  clips: ClipView[];
};

/** One of the caller's videos with its chapters, interest curve and clips. */
export async function getVideo(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
}): Promise<{ video: VideoDetailView }> {
  const { runtime, creatorId, videoId } = options;
  const video = await findVideoOrThrow(options);
  const table = tableOf(runtime);
  const [view, chapters, clips] = await Promise.all([
    toVideoView(runtime, video),
    findVideoChapters({ table, creatorId, videoId }),
    listClipsByVideo({ table, creatorId, videoId }),
  ]);
  const clipViews = await Promise.all(clips.map((clip) => toClipView({ runtime, clip: summaryOf(clip) })));
  return {
    video: {
      ...view,
      chapters: chapters?.chapters ?? [],
      interestCurve: chapters?.interestCurve ?? null,
      clips: clipViews.sort(bestFirst),
    },
  };
}
