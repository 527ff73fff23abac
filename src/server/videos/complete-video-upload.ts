import "server-only";
import { DeleteObjectCommand } from "@aws-sdk/client-s3";
import { z } from "zod";
import {
  claimVideoCompletion,
  forgetRecordedUploadParts,
  markVideoUploaded,
  releaseVideoCompletion,
  updateVideoStatus,
  type Video,
} from "@/db/repos/video-repo";
import { enqueueJob } from "@/queue/enqueue-job";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { headObject } from "@/storage/head-object";
import { completeMultipartUpload } from "@/storage/multipart";
import { findStoredParts } from "./find-stored-parts";
import { findVideoOrThrow } from "./find-video-or-throw";
import { toVideoView, type VideoView } from "./to-video-view";

export const CompleteVideoUploadBody = z
  .object({
    /** For multipart uploads: every part's ETag. Optional: the server can find stored parts itself. */
    parts: z
      .array(z.object({ partNumber: z.number().int().positive(), etag: z.string().min(1).max(200) }))
      .max(10_000)
      .optional(),
  })
  .strict();
export type CompleteVideoUploadBody = z.infer<typeof CompleteVideoUploadBody>;

/** How long one request may hold the completion: longer than closing and checking take. */
const COMPLETION_HOLD_MS = 2 * 60_000;
/** How long a concurrent request waits for the holder's outcome before answering 409. */
const COMPLETION_WAIT_MS = 30_000;
const COMPLETION_POLL_MS = 200;
/**
 * A retried completion queues the ingest again only for a video left UPLOADED (no status or
 * progress write) this long: an ingest reports progress within seconds of starting, so a
 * minute of silence means its job was plausibly lost. Sooner, every retry (a double click, a
 * browser retrying a lost answer) would start a pipeline of its own. Far below the sweep's
 * STUCK_AFTER_MS (15 minutes, sweep-videos.ts), which re-queues it if nobody retries.
 */
export const INGEST_PRESUMED_LOST_AFTER_MS = 60_000;

/**
 * The browser says the bytes are up. Closes the multipart upload, verifies the stored object
 * (HeadObject: its size must be the declared size), records its ETag (the workers read only
 * that object), moves the video to UPLOADED and queues `ingest-video` (probe, metadata, then
 * analysis). Repeatable: a later call answers with the video as it is, and queues the ingest
 * again only when it still sits UPLOADED after `INGEST_PRESUMED_LOST_AFTER_MS`.
 *
 * One request at a time does that work (a completion hold on the video item): a second one for
 * the same upload (another tab, a retry while the first is still running) waits for its
 * outcome and answers as a retried request would, rather than closing the upload alongside it
 * and tripping over the status the first one wrote.
 */
export async function completeVideoUpload(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
  body: CompleteVideoUploadBody;
  /** The clock, for tests. */
  now?: Date;
}): Promise<{ video: VideoView }> {
  const { runtime, creatorId, videoId } = options;
  const nowMs = (options.now ?? new Date()).getTime();
  const table = tableOf(runtime);
  const waitUntil = Date.now() + COMPLETION_WAIT_MS;
  for (;;) {
    const video = await findVideoOrThrow({ runtime, creatorId, videoId, consistent: true });
    if (video.origin !== "upload")
      throw new AppError("conflict", "This video is imported from a URL, not uploaded.");
    if (video.status !== "UPLOADING") return answerAsRetried(runtime, video, nowMs);
    const hold = await claimVideoCompletion({ table, creatorId, videoId, leaseMs: COMPLETION_HOLD_MS });
    if (hold) {
      try {
        return await completeHeldUpload(runtime, video, options.body, nowMs);
      } catch (error) {
        // Still UPLOADING (parts missing, no file yet): a retry may start over straight away.
        // Should letting go fail too, the hold lapses by itself.
        await releaseVideoCompletion({ table, creatorId, videoId, hold }).catch(() => {});
        throw error;
      }
    }
    if (Date.now() >= waitUntil) {
      // Temporary, unlike the 409s (missing parts, wrong size): the browser retries a 503.
      throw new AppError(
        "unavailable",
        "Another request is still completing this upload. Try again in a moment.",
        {
          retryAfterSeconds: 5,
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, COMPLETION_POLL_MS));
  }
}

/** A video past UPLOADING: the answer to a retried request (the first answer got lost). */
async function answerAsRetried(runtime: Runtime, video: Video, nowMs: number): Promise<{ video: VideoView }> {
  if (video.status === "FAILED") throw new AppError("conflict", `This upload failed: ${video.failureReason}`);
  // Past UPLOADED, the ingest ran. Still UPLOADED and quiet for a while, its job (or the
  // enqueue itself) was lost: queue it again. Otherwise it is queued or running, and a copy
  // would only probe the file twice.
  const untouchedForMs = nowMs - Date.parse(video.updatedAt);
  if (video.status === "UPLOADED" && untouchedForMs > INGEST_PRESUMED_LOST_AFTER_MS)
    await enqueueJob(runtime, "ingest-video", { creatorId: video.creatorId, videoId: video.videoId });
  return { video: await toVideoView(runtime, video) };
}

/** The completion proper, by the request holding it. */
async function completeHeldUpload(
  runtime: Runtime,
  video: Video,
  body: CompleteVideoUploadBody,
  nowMs: number,
): Promise<{ video: VideoView }> {
  const { creatorId, videoId } = video;
  if (video.uploadKind === "multipart") await closeMultipartUpload(runtime, video, body.parts);

  const bucket = runtime.config.aws.bucketName;
  const head = await headObject({ s3: runtime.clients.s3, bucket, key: video.sourceKey });
  if (!head)
    throw new AppError("conflict", "No file has been stored for this video yet. Upload it, then complete.");
  if (video.declaredSizeBytes !== null && head.sizeBytes !== video.declaredSizeBytes) {
    const reason = `The stored file is ${head.sizeBytes.toLocaleString("en")} bytes, but ${video.declaredSizeBytes.toLocaleString("en")} were declared. Upload it again.`;
    await updateVideoStatus({
      table: tableOf(runtime),
      creatorId,
      videoId,
      from: ["UPLOADING"],
      to: "FAILED",
      failureReason: reason,
      set: { completingUntil: null },
    });
    await runtime.clients.s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: video.sourceKey }));
    throw new AppError("conflict", reason);
  }
  let uploaded: Video;
  try {
    uploaded = await markVideoUploaded({ table: tableOf(runtime), creatorId, videoId, stored: head });
  } catch (error) {
    // Moved on meanwhile (the hold lapsed and another request finished, or the sweep gave up
    // on the upload): answer with what it is now.
    if (!(error instanceof AppError && error.code === "conflict")) throw error;
    const current = await findVideoOrThrow({ runtime, creatorId, videoId, consistent: true });
    // Still UPLOADING: the write lost to another transaction on the item (a conflict, not the
    // status condition); the browser's retry completes it.
    if (current.status === "UPLOADING") throw error;
    return answerAsRetried(runtime, current, nowMs);
  }
  // If this fails the video stays UPLOADED: a retried complete after
  // INGEST_PRESUMED_LOST_AFTER_MS, or the sweep, queues it again.
  await enqueueJob(runtime, "ingest-video", { creatorId, videoId });
  return { video: await toVideoView(runtime, uploaded) };
}

async function closeMultipartUpload(
  runtime: Runtime,
  video: Video,
  givenParts: CompleteVideoUploadBody["parts"],
): Promise<void> {
  const { uploadId, partCount } = video;
  if (!uploadId || !partCount) return;
  const stored = givenParts ? null : await findStoredParts(runtime, video);
  const parts = givenParts ?? stored?.parts ?? [];
  const byNumber = new Map(parts.map((part) => [part.partNumber, part.etag.replaceAll('"', "")]));
  const missing: number[] = [];
  for (let partNumber = 1; partNumber <= partCount; partNumber++)
    if (!byNumber.has(partNumber)) missing.push(partNumber);
  if (missing.length > 0 || byNumber.size !== partCount) {
    throw new AppError(
      "conflict",
      missing.length > 0
        ? `${missing.length} of ${partCount} parts are not uploaded yet (first missing: part ${missing[0]}).`
        : `This upload has ${partCount} parts; ${byNumber.size} were given.`,
    );
  }
  try {
    await completeMultipartUpload({
      s3: runtime.clients.s3,
      bucket: runtime.config.aws.bucketName,
      key: video.sourceKey,
      uploadId,
      parts: [...byNumber].map(([partNumber, etag]) => ({ partNumber, etag })),
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    // Already completed by an earlier request whose answer was lost: HeadObject decides.
    if (name === "NoSuchUpload") return;
    // s3rver fails on a part file it does not have with a file-system error.
    const partsMissing = /ENOENT/.test(String((error as Error).message));
    const refused =
      partsMissing || name === "InvalidPart" || name === "InvalidPartOrder" || name === "EntityTooSmall";
    // Parts the browser reported that storage does not hold as reported: forgotten, so the
    // resume asks for them again instead of offering them as stored forever.
    if (refused && stored?.source === "recorded") {
      await forgetRecordedUploadParts({
        table: tableOf(runtime),
        creatorId: video.creatorId,
        videoId: video.videoId,
        uploadId,
      });
    }
    if (refused) {
      throw new AppError(
        "conflict",
        partsMissing
          ? "Some parts are not uploaded yet. Resume the upload."
          : "Some parts did not arrive intact. Resume the upload to send them again.",
        { cause: error },
      );
    }
    throw error;
  }
}
