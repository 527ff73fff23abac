import { findRecordedUploadParts, type Video } from "@/db/repos/video-repo";
import { type Runtime, tableOf } from "@/server/runtime";
import { listStoredParts } from "@/storage/multipart";
import { partRange } from "@/storage/plan-upload";

export type StoredUploadPart = { partNumber: number; etag: string };

/**
 * The parts of a video's multipart upload that S3 already holds: ListParts where the server
 * has it (only parts of the expected size count), otherwise the parts the browser reported.
 */
export async function findStoredParts(
  runtime: Runtime,
  video: Video,
): Promise<{ parts: StoredUploadPart[]; source: "s3" | "recorded" }> {
  const { uploadId, partSizeBytes, partCount, declaredSizeBytes } = video;
  if (!uploadId || !partSizeBytes || !partCount || declaredSizeBytes === null)
    return { parts: [], source: "s3" };
  const listed = await listStoredParts({
    s3: runtime.clients.s3,
    bucket: runtime.config.aws.bucketName,
    key: video.sourceKey,
    uploadId,
  });
  if (listed === "no-such-upload") return { parts: [], source: "s3" };
  if (listed !== "unsupported") {
    const plan = { sizeBytes: declaredSizeBytes, partSizeBytes, partCount };
    return {
      parts: listed
        .filter((part) => part.partNumber <= partCount)
        .filter(
          (part) => part.sizeBytes === null || part.sizeBytes === partRange(plan, part.partNumber).sizeBytes,
        )
        .map(({ partNumber, etag }) => ({ partNumber, etag })),
      source: "s3",
    };
  }
  const recorded = await findRecordedUploadParts({
    table: tableOf(runtime),
    creatorId: video.creatorId,
    videoId: video.videoId,
    uploadId,
  });
  return { parts: recorded.filter((part) => part.partNumber <= partCount), source: "recorded" };
}
