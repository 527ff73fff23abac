import { findVideoById, markVideoUploaded, updateVideo, updateVideoProgress } from "@/db/repos/video-repo";
import { describeSizeOverLimit, formatBytes } from "@/lib/format-bytes";
import { type OpenedUrl, openPublicUrl, UrlImportError } from "@/net/open-public-url";
import { isGoneOrChanged } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { normalizeContentType } from "@/server/videos/accepted-video-formats";
import { headObject } from "@/storage/head-object";
import { abortMultipartUpload, createMultipartUpload } from "@/storage/multipart";
import { StreamTooLargeError, uploadStreamAsMultipart } from "@/storage/upload-stream";
import type { JobContext, JobHandler, JobLog } from "../job-types";
import { PermanentJobError } from "../job-types";
import { failVideo } from "./fail-video";
import { ingestStoredVideo } from "./ingest-video";

/**
 * `import-video`: fetch a direct media URL into the bucket, then continue as `ingest-video`.
 * The fetch refuses private addresses on every hop and connects only to the address it checked
 * (see open-public-url.ts), stops at `uploads.maxBytes` and after `uploads.importTimeoutSeconds`,
 * and streams into a multipart upload part by part (never the whole file in memory or on disk).
 *
 * Idempotent: a redelivery finds the video UPLOADING (starts the download over, aborting the
 * earlier upload), UPLOADED (only ingests) or further along (nothing to do).
 */
export const importVideoJob: JobHandler<"import-video"> = {
  run: async ({ creatorId, videoId }, context) => {
    await importVideo({ creatorId, videoId, context });
  },
  onGiveUp: async ({ creatorId, videoId }, context, reason) => {
    await failVideo({
      runtime: context.runtime,
      video: { creatorId, videoId },
      from: ["UPLOADING", "UPLOADED"],
      reason: `The import failed: ${reason}`,
      log: context.log,
    });
  },
};

/** Parts of an import: large enough to keep request counts low, small enough for memory. */
const IMPORT_PART_SIZE_BYTES = 16 * 1024 * 1024;
const PROGRESS_INTERVAL_MS = 3_000;

async function importVideo(options: {
  creatorId: string;
  videoId: string;
  context: JobContext;
}): Promise<void> {
  const { creatorId, videoId, context } = options;
  const { runtime, log } = context;
  const table = tableOf(runtime);
  const video = await findVideoById({ table, creatorId, videoId, consistent: true });
  if (video?.origin !== "import" || !video.importUrl) {
    log("nothing to import", { videoId });
    return;
  }
  if (video.status === "UPLOADED" || video.status === "QUEUED") {
    const isRetry = context.attempt > 1;
    await ingestStoredVideo({ runtime, creatorId, videoId, signal: context.signal, log, isRetry });
    return;
  }
  if (video.status !== "UPLOADING") return;

  const bucket = runtime.config.aws.bucketName;
  const { s3 } = runtime.clients;
  if (video.uploadId) {
    // An earlier attempt stopped mid-way; its parts cannot be trusted to line up with a new download.
    await abortMultipartUpload({ s3, bucket, key: video.sourceKey, uploadId: video.uploadId });
  }
  const { maxBytes, importTimeoutSeconds, importAllowPrivateAddresses } = runtime.config.uploads;
  const signal = AbortSignal.any([context.signal, AbortSignal.timeout(importTimeoutSeconds * 1000)]);
  const timedOut = () => !context.signal.aborted && signal.aborted;

  await updateVideoProgress({
    table,
    creatorId,
    videoId,
    status: "UPLOADING",
    stage: "connecting",
    progressPercent: 0,
  });
  let uploadId: string | undefined;
  let openedResponse: OpenedUrl["response"] | undefined;
  try {
    const opened = await openPublicUrl({
      url: video.importUrl,
      allowPrivateAddresses: importAllowPrivateAddresses,
      signal,
    });
    openedResponse = opened.response;
    if (opened.contentLength !== null && opened.contentLength > maxBytes) {
      opened.response.destroy();
      await refuse(runtime, video, describeSizeOverLimit("The file", opened.contentLength, maxBytes), log);
    }
    const contentType = importedContentType(opened.contentType);
    uploadId = await createMultipartUpload({ s3, bucket, key: video.sourceKey, contentType, signal });
    // Recorded so a delete or the sweep can abort it if this worker dies.
    await updateVideo({ table, creatorId, videoId, set: { uploadId } });
    let lastReportAt = Date.now();
    const { sizeBytes } = await uploadStreamAsMultipart({
      s3,
      bucket,
      key: video.sourceKey,
      uploadId,
      stream: opened.response,
      partSizeBytes: IMPORT_PART_SIZE_BYTES,
      maxBytes,
      signal,
      onProgress: (receivedBytes) => {
        if (Date.now() - lastReportAt < PROGRESS_INTERVAL_MS) return;
        lastReportAt = Date.now();
        const percent = opened.contentLength ? (receivedBytes / opened.contentLength) * 100 : 0;
        void updateVideoProgress({
          table,
          creatorId,
          videoId,
          status: "UPLOADING",
          stage: `downloading (${formatBytes(receivedBytes)})`,
          progressPercent: Math.min(99, percent),
        }).catch((error) => log("could not report progress", { error: String(error) }));
      },
    });
    if (opened.contentLength !== null && sizeBytes !== opened.contentLength)
      throw new Error(`The download ended after ${sizeBytes} of ${opened.contentLength} bytes.`);
    const head = await headObject({ s3, bucket, key: video.sourceKey, signal });
    if (!head) throw new Error("The downloaded file did not arrive in storage.");
    // Read only as stored here, as an upload is (pinned-source.ts).
    await markVideoUploaded({ table, creatorId, videoId, stored: head });
  } catch (error) {
    // A failure before the body was read (starting the upload, recording it) would otherwise
    // leave the connection open until the import's time limit, and each retry opens another.
    openedResponse?.destroy();
    if (uploadId) await abortMultipartUpload({ s3, bucket, key: video.sourceKey, uploadId }).catch(() => {});
    if (error instanceof PermanentJobError) throw error;
    if (isGoneOrChanged(error)) {
      log("video was deleted or changed during the import", { videoId });
      return;
    }
    if (error instanceof StreamTooLargeError) await refuse(runtime, video, error.message, log);
    if (error instanceof UrlImportError && error.options.permanent)
      await refuse(runtime, video, error.message, log);
    if (timedOut()) {
      await refuse(
        runtime,
        video,
        `The download took longer than ${Math.round(importTimeoutSeconds / 60)} minutes.`,
        log,
      );
    }
    throw error;
  }
  await ingestStoredVideo({ runtime, creatorId, videoId, signal: context.signal, log, isRetry: false });
}

async function refuse(
  runtime: Runtime,
  video: { creatorId: string; videoId: string },
  reason: string,
  log: JobLog,
): Promise<never> {
  await failVideo({ runtime, video, from: ["UPLOADING"], reason, log });
  throw new PermanentJobError(reason);
}

/** The stored type: the server's video type when it names one, otherwise a neutral one (ffprobe decides). */
function importedContentType(header: string | null): string {
  const type = normalizeContentType(header ?? "");
  return type.startsWith("video/") ? type : "application/octet-stream";
}
