import "server-only";
import { z } from "zod";
import { recordUploadPart } from "@/db/repos/video-repo";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { findVideoOrThrow } from "./find-video-or-throw";

export const RecordUploadPartBody = z
  .object({
    /** The ETag S3 returned for the part (quoted or not). */
    etag: z
      .string()
      .min(1)
      .max(200)
      .regex(/^"?[\w-]+"?$/, "must be the ETag S3 returned"),
  })
  .strict();

/**
 * The browser reports each part it stored, so a reloaded page can resume even where the S3
 * server cannot list an upload's parts (the embedded one cannot). Real S3's ListParts stays
 * the source of truth where it exists.
 */
export async function recordUploadedPart(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
  partNumber: number;
  etag: string;
}): Promise<void> {
  const video = await findVideoOrThrow(options);
  if (video.status !== "UPLOADING" || !video.uploadId || !video.partCount)
    throw new AppError("conflict", "This video has no upload in progress.");
  if (!Number.isInteger(options.partNumber) || options.partNumber < 1 || options.partNumber > video.partCount)
    throw new AppError("bad_request", `This upload has ${video.partCount} parts.`);
  await recordUploadPart({
    table: tableOf(options.runtime),
    creatorId: options.creatorId,
    videoId: options.videoId,
    uploadId: video.uploadId,
    partNumber: options.partNumber,
    etag: options.etag.replaceAll('"', ""),
  });
}
