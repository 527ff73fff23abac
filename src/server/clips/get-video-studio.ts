import "server-only";
import { findVideoChapters, type InterestCurve, type StoredChapter } from "@/db/repos/chapters-repo";
import { listClipsByVideo } from "@/db/repos/clip-repo";
import { findVideoById, type Video } from "@/db/repos/video-repo";
import { toYouTubeChapterText } from "@/engine/chapters/youtube-chapter-text";
import { isId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { presignMediaUrl } from "@/storage/presign-media-url";
import { bestFirst } from "./best-first";
import { type ClipDetail, toClipDetail } from "./get-clip";

/** Everything the video page shows: the video's state, and once it has clips, the studio. */
export type VideoStudio = {
  video: Pick<
    Video,
    | "videoId"
    | "filename"
    | "origin"
    | "status"
    | "stage"
    | "progressPercent"
    | "failureReason"
    | "probe"
    | "analysis"
    | "captions"
    | "clipCount"
    | "clipOptions"
    | "processedAt"
    | "createdAt"
    | "updatedAt"
  >;
  /** A short-lived URL of the source for the page's player (null until the upload is checked). */
  sourceUrl: string | null;
  chapters: StoredChapter[];
  /** The chapters as YouTube description text (first at 0:00, each ≥ 10 s), when they qualify. */
  youtubeChapterText: string | null;
  interestCurve: InterestCurve | null;
  clips: ClipDetail[];
};

/** One of the creator's videos for its page; another creator's video (or a bad id) is a 404. */
export async function getVideoStudio(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
}): Promise<VideoStudio> {
  const { runtime, creatorId, videoId } = options;
  if (!isId("video", videoId)) throw new AppError("not_found", "No such video.");
  const table = tableOf(runtime);
  const video = await findVideoById({ table, creatorId, videoId });
  if (!video) throw new AppError("not_found", "No such video.");

  const view: VideoStudio = {
    video: {
      videoId: video.videoId,
      filename: video.filename,
      origin: video.origin,
      status: video.status,
      stage: video.stage,
      progressPercent: video.progressPercent,
      processedAt: video.processedAt,
      failureReason: video.failureReason,
      probe: video.probe,
      analysis: video.analysis,
      captions: video.captions,
      clipCount: video.clipCount,
      clipOptions: video.clipOptions,
      createdAt: video.createdAt,
      updatedAt: video.updatedAt,
    },
    sourceUrl: null,
    chapters: [],
    youtubeChapterText: null,
    interestCurve: null,
    clips: [],
  };
  // Clips and chapters exist from the first RENDERING stage on, and stay while a ready video is
  // queued and analysed again for other clips; before its first analysis a video has none.
  if (video.status === "UPLOADING" || video.status === "UPLOADED" || video.status === "FAILED") return view;

  const [clips, chapters, source] = await Promise.all([
    listClipsByVideo({ table, creatorId, videoId }),
    findVideoChapters({ table, creatorId, videoId }),
    presignMediaUrl({
      presigner: runtime.clients.s3Presigner,
      bucket: runtime.config.aws.bucketName,
      key: video.sourceKey,
    }),
  ]);
  const sourceProbe = video.probe ?? null;
  // "Best first", as the page says.
  view.clips = (await Promise.all(clips.map((clip) => toClipDetail({ runtime, clip, sourceProbe })))).sort(
    bestFirst,
  );
  view.sourceUrl = source.url;
  if (chapters) {
    view.chapters = chapters.chapters;
    view.interestCurve = chapters.interestCurve;
    view.youtubeChapterText = youtubeTextOf(chapters.chapters);
  }
  return view;
}

function youtubeTextOf(chapters: StoredChapter[]): string | null {
  const text = toYouTubeChapterText(chapters);
  return text.trim().length > 0 ? text : null;
}
