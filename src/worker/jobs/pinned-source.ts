import type { Video, VideoStatus } from "@/db/repos/video-repo";
import type { Runtime } from "@/server/runtime";
import { headObject } from "@/storage/head-object";
import { type JobLog, PermanentJobError } from "../job-types";
import { failVideo } from "./fail-video";

/**
 * A video's source is read only as the object upload-complete (or the import) verified: every
 * read is conditional on the ETag recorded then (`sourceEtag`). An upload URL stays valid for
 * a while after the upload completed, and a second PUT through it would otherwise put another
 * file (longer, of another kind) past the checks already made. Downloads send `If-Match`
 * (`downloadObjectToFile`'s `ifMatch`); ffprobe, and every ffmpeg pass of a render that reads
 * the stored source by URL (stored-source.ts), send it with each request. Only
 * Gemini's own fetch of the URL cannot carry it: `assertSourceUnchanged` checks just before.
 * Videos stored before the ETag was recorded have none: they are read as they are.
 */
export const SOURCE_CHANGED_REASON =
  "The uploaded file was changed after the upload finished. Upload it again.";

type PinnedSource = Pick<Video, "sourceKey" | "sourceEtag">;

/** `If-Match` for ffprobe/ffmpeg reading the source over a presigned URL (none when unpinned). */
export function sourceRequestHeaders(video: Pick<Video, "sourceEtag">): Record<string, string> {
  return video.sourceEtag ? { "If-Match": video.sourceEtag } : {};
}

/**
 * Checks that the stored source is still the object verified (HeadObject with If-Match):
 * ObjectChangedError otherwise. A missing source is left to the read that follows.
 */
export async function assertSourceUnchanged(
  runtime: Runtime,
  video: PinnedSource,
  signal?: AbortSignal,
): Promise<void> {
  if (!video.sourceEtag) return;
  await headObject({
    s3: runtime.clients.s3,
    bucket: runtime.config.aws.bucketName,
    key: video.sourceKey,
    ifMatch: video.sourceEtag,
    signal,
  });
}

/** Every status in which the workers read a video's source to make it READY. */
const READ_STATUSES: readonly VideoStatus[] = ["UPLOADED", "QUEUED", "ANALYZING", "RENDERING"];

/**
 * The source was replaced: the video is FAILED with SOURCE_CHANGED_REASON (unless it already
 * failed or is gone), and the job stops for good (returns the error to throw: no retry reads
 * another object).
 */
export async function failChangedSource(
  runtime: Runtime,
  video: Pick<Video, "creatorId" | "videoId">,
  log: JobLog,
): Promise<PermanentJobError> {
  await failVideo({ runtime, video, from: READ_STATUSES, reason: SOURCE_CHANGED_REASON, log });
  return new PermanentJobError(SOURCE_CHANGED_REASON);
}
