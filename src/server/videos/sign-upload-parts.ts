import "server-only";
import { z } from "zod";
import { AppError } from "@/server/errors";
import type { Runtime } from "@/server/runtime";
import { findVideoOrThrow } from "./find-video-or-throw";
import { type SignedPart, signParts } from "./upload-instructions";

export const SignUploadPartsBody = z
  .object({
    partNumbers: z.array(z.number().int().positive()).min(1).max(100),
  })
  .strict();

/** Fresh presigned URLs for parts of the caller's open multipart upload. */
export async function signUploadParts(options: {
  runtime: Runtime;
  creatorId: string;
  videoId: string;
  partNumbers: number[];
}): Promise<{ parts: SignedPart[] }> {
  const video = await findVideoOrThrow(options);
  if (video.status !== "UPLOADING" || video.uploadKind !== "multipart" || !video.uploadId || !video.partCount)
    throw new AppError("conflict", "This video has no upload in progress.");
  const partCount = video.partCount;
  const outside = options.partNumbers.filter((partNumber) => partNumber > partCount);
  if (outside.length > 0)
    throw new AppError(
      "bad_request",
      `This upload has ${partCount} parts; part ${outside[0]} does not exist.`,
    );
  const unique = [...new Set(options.partNumbers)].sort((a, b) => a - b);
  return { parts: await signParts(options.runtime, video, unique) };
}
