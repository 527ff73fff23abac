import type { Video } from "@/db/repos/video-repo";
import type { Runtime } from "@/server/runtime";
import { partRange } from "@/storage/plan-upload";
import { type PresignedRequest, presignSinglePut, presignUploadPart } from "@/storage/presign";

/** How the browser sends the bytes: straight to the bucket, never through the app. */
export type SingleUploadInstructions = { kind: "single" } & PresignedRequest;

export type SignedPart = { partNumber: number; sizeBytes: number } & PresignedRequest;

export type MultipartUploadInstructions = {
  kind: "multipart";
  uploadId: string;
  partSizeBytes: number;
  partCount: number;
  /** URLs for the first parts; ask `POST /api/videos/{id}/upload-parts` for more. */
  parts: SignedPart[];
};

export type UploadInstructions = SingleUploadInstructions | MultipartUploadInstructions;

/** Part URLs handed out per request: enough to keep 4 uploads busy for a while. */
export const PART_URLS_PER_BATCH = 20;

export async function signSingleUpload(runtime: Runtime, video: Video): Promise<SingleUploadInstructions> {
  const request = await presignSinglePut({
    presigner: runtime.clients.s3Presigner,
    bucket: runtime.config.aws.bucketName,
    key: video.sourceKey,
    contentType: video.declaredContentType ?? "application/octet-stream",
    contentLengthBytes: video.declaredSizeBytes ?? 0,
  });
  return { kind: "single", ...request };
}

/** Signs the given parts of a video's open multipart upload, each pinned to its exact size. */
export async function signParts(
  runtime: Runtime,
  video: Video,
  partNumbers: number[],
): Promise<SignedPart[]> {
  const { uploadId, partSizeBytes, partCount, declaredSizeBytes } = video;
  if (!uploadId || !partSizeBytes || !partCount || declaredSizeBytes === null)
    throw new Error(`Video ${video.videoId} has no open multipart upload`);
  const plan = { sizeBytes: declaredSizeBytes, partSizeBytes, partCount };
  return Promise.all(
    partNumbers.map(async (partNumber) => {
      const { sizeBytes } = partRange(plan, partNumber);
      const request = await presignUploadPart({
        presigner: runtime.clients.s3Presigner,
        bucket: runtime.config.aws.bucketName,
        key: video.sourceKey,
        uploadId,
        partNumber,
        contentLengthBytes: sizeBytes,
      });
      return { partNumber, sizeBytes, ...request };
    }),
  );
}
