import "server-only";
import { AppError } from "@/server/errors";
import type { Runtime } from "@/server/runtime";
import { headObject } from "@/storage/head-object";
import { findStoredParts, type StoredUploadPart } from "./find-stored-parts";
import { findVideoOrThrow } from "./find-video-or-throw";
import { toVideoView, type VideoView } from "./to-video-view";
import {
  PART_URLS_PER_BATCH,
  type SignedPart,
  type SingleUploadInstructions,
  signParts,
  signSingleUpload,
} from "./upload-instructions";

export type ResumeInstructions =
  | (SingleUploadInstructions & {
      /**
       * The file is stored already, at its declared size (its PUT went through, then the page
       * lost the answer or stopped before completing): complete it, do not send it again.
       */
      stored: boolean;
    })
  | {
      kind: "multipart";
      uploadId: string;
      partSizeBytes: number;
      partCount: number;
      /** Parts already stored: do not send them again. */
      storedParts: StoredUploadPart[];
      /** URLs for the first parts still missing. */
      parts: SignedPart[];
    };

/**
 * Picks an interrupted upload up again (page reloaded, network lost): for a multipart upload,
 * the parts S3 already holds and URLs for the first missing ones; for a single PUT, a fresh URL
 * and whether the file is there already.
 */
export async function resumeVideoUpload(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
}): Promise<{ video: VideoView; upload: ResumeInstructions }> {
  const { runtime } = options;
  const video = await findVideoOrThrow({ ...options, consistent: true });
  if (video.status !== "UPLOADING" || video.origin !== "upload")
    throw new AppError("conflict", `This video is not waiting for an upload (it is ${video.status}).`);
  if (video.uploadKind === "single") {
    const [head, instructions] = await Promise.all([
      headObject({ s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName, key: video.sourceKey }),
      signSingleUpload(runtime, video),
    ]);
    const stored = head !== undefined && head.sizeBytes === video.declaredSizeBytes;
    return { video: await toVideoView(runtime, video), upload: { ...instructions, stored } };
  }
  const { uploadId, partSizeBytes, partCount } = video;
  if (!uploadId || !partSizeBytes || !partCount)
    throw new AppError("conflict", "This upload can no longer be resumed.");
  const { parts: storedParts } = await findStoredParts(runtime, video);
  const stored = new Set(storedParts.map((part) => part.partNumber));
  const missing: number[] = [];
  for (let partNumber = 1; partNumber <= partCount && missing.length < PART_URLS_PER_BATCH; partNumber++) {
    if (!stored.has(partNumber)) missing.push(partNumber);
  }
  return {
    video: await toVideoView(runtime, video),
    upload: {
      kind: "multipart",
      uploadId,
      partSizeBytes,
      partCount,
      storedParts,
      parts: await signParts(runtime, video, missing),
    },
  };
}
