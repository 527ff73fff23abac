import "server-only";
import { listClipsByVideo, renewClipRevision } from "@/db/repos/clip-repo";
import { updateVideo, type Video, type VideoCaptions } from "@/db/repos/video-repo";
import {
  MAX_SUBTITLE_FILE_BYTES,
  parseSubtitles,
  SubtitleParseError,
} from "@/engine/captions/parse-subtitles";
import { formatTimestamp } from "@/engine/format-timestamp";
import { enqueueJob } from "@/queue/enqueue-job";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { deleteObjects, writeTextObject } from "@/storage/object-io";
import { captionsObjectKey } from "@/storage/object-keys";
import { findVideoOrThrow } from "./find-video-or-throw";
import { retitleChapters } from "./retitle-chapters";
import { toVideoView, type VideoView } from "./to-video-view";

const CONTENT_TYPES = { srt: "application/x-subrip", vtt: "text/vtt" } as const;

export type CaptionsChange = { video: VideoView; clipsRerendering: number };

/**
 * A creator's subtitle file (SRT or WebVTT) for one of their videos. It is parsed here, so a
 * file that is not subtitles, or whose cues all start after the video ends, is refused with
 * the reason and nothing is stored. Stored, it replaces any earlier file; clips rendered
 * already are re-rendered with the captions (each as a new revision, the current render on
 * show until then), chapters the local analyzer titled take the first words said in them, and
 * an analysis still to come reads it.
 */
export async function setVideoCaptions(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
  fileName: string;
  text: string;
}): Promise<CaptionsChange> {
  const { runtime, creatorId, videoId } = options;
  const video = await findVideoOrThrow({ runtime, creatorId, videoId, consistent: true });
  if (Buffer.byteLength(options.text, "utf8") > MAX_SUBTITLE_FILE_BYTES) {
    throw new AppError(
      "payload_too_large",
      `A subtitle file may be up to ${MAX_SUBTITLE_FILE_BYTES / 1024 / 1024} MB; this one is larger.`,
    );
  }
  if (options.text.trim() === "") {
    throw new AppError("validation_failed", `${options.fileName} is empty: it has no captions to show.`);
  }
  let cues: ReturnType<typeof parseSubtitles>;
  try {
    cues = parseSubtitles(options.text);
  } catch (error) {
    if (error instanceof SubtitleParseError) throw new AppError("validation_failed", error.message);
    throw error;
  }
  const durationSeconds = video.probe?.durationSeconds;
  const firstCueSeconds = cues[0]?.startSeconds ?? 0;
  if (durationSeconds !== undefined && firstCueSeconds >= durationSeconds) {
    throw new AppError(
      "validation_failed",
      `The first caption starts at ${formatTimestamp(firstCueSeconds)}, after the video ends (${formatTimestamp(durationSeconds)}). Is the file for another video?`,
    );
  }

  const format = /^\uFEFF?WEBVTT/.test(options.text) ? "vtt" : "srt";
  const storage = { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName };
  await writeTextObject({
    ...storage,
    key: captionsObjectKey(creatorId, videoId, format),
    text: options.text,
    contentType: CONTENT_TYPES[format],
  });
  // One file per video: the worker reads whichever exists.
  await deleteObjects({
    ...storage,
    keys: [captionsObjectKey(creatorId, videoId, format === "srt" ? "vtt" : "srt")],
  });
  const captions: VideoCaptions = {
    fileName: options.fileName,
    format,
    cueCount: cues.length,
    uploadedAt: new Date().toISOString(),
  };
  return saveAndRerender({ runtime, video, captions });
}

/** Removes a video's subtitle file; its clips are re-rendered without those captions. */
export async function removeVideoCaptions(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
}): Promise<CaptionsChange> {
  const { runtime, creatorId, videoId } = options;
  const video = await findVideoOrThrow({ runtime, creatorId, videoId, consistent: true });
  if (!video.captions) return { video: await toVideoView(runtime, video), clipsRerendering: 0 };
  await deleteObjects({
    s3: runtime.clients.s3,
    bucket: runtime.config.aws.bucketName,
    keys: [captionsObjectKey(creatorId, videoId, "srt"), captionsObjectKey(creatorId, videoId, "vtt")],
  });
  return saveAndRerender({ runtime, video, captions: null });
}

async function saveAndRerender(options: {
  runtime: Runtime;
  video: Video;
  captions: VideoCaptions | null;
}): Promise<CaptionsChange> {
  const { runtime, video } = options;
  const { creatorId, videoId } = video;
  const table = tableOf(runtime);
  const updated = await updateVideo({ table, creatorId, videoId, set: { captions: options.captions } });
  // Clips exist once analysis has saved them; before that, the analysis reads the file itself.
  const clips = await listClipsByVideo({ table, creatorId, videoId, consistent: true });
  try {
    await retitleChapters({ runtime, video: updated });
    for (const clip of clips) {
      const renewed = await renewClipRevision({ table, creatorId, clipId: clip.clipId });
      await enqueueJob(runtime, "render-clip", {
        creatorId,
        videoId,
        clipId: clip.clipId,
        revision: renewed.revision,
      });
    }
  } catch (error) {
    throw new AppError(
      "unavailable",
      "The captions are saved, but the chapters and clips could not all be brought up to date. Send the file again in a moment.",
      { cause: error, retryAfterSeconds: 5 },
    );
  }
  return { video: await toVideoView(runtime, updated), clipsRerendering: clips.length };
}
