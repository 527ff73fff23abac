/**
 * How a file of a given size is uploaded: one presigned PUT up to the multipart threshold,
 * otherwise a multipart upload in equal parts (the last one shorter). Pure, so the browser
 * plan and the server's signed part sizes always agree.
 */
export type UploadPlan =
  | { kind: "single"; sizeBytes: number }
  | { kind: "multipart"; sizeBytes: number; partSizeBytes: number; partCount: number };

const MiB = 1024 * 1024;
/** S3's smallest part (except the last). */
export const MIN_PART_SIZE_BYTES = 5 * MiB;
/**
 * S3 allows 10,000 parts; we stay at 1,000 so the parts a browser reports fit comfortably in one
 * table item (about 60 KB) and a resumed upload has at most 1,000 parts to list.
 */
export const MAX_PART_COUNT = 1000;

export function planUpload(options: {
  sizeBytes: number;
  multipartThresholdBytes: number;
  partSizeBytes: number;
}): UploadPlan {
  const { sizeBytes, multipartThresholdBytes } = options;
  if (!Number.isSafeInteger(sizeBytes) || sizeBytes <= 0) throw new Error(`Invalid file size: ${sizeBytes}`);
  if (sizeBytes <= multipartThresholdBytes) return { kind: "single", sizeBytes };
  let partSizeBytes = Math.max(MIN_PART_SIZE_BYTES, options.partSizeBytes);
  if (Math.ceil(sizeBytes / partSizeBytes) > MAX_PART_COUNT) {
    // Bigger parts, rounded up to a whole MiB, so the count stays within the limit.
    partSizeBytes = Math.ceil(sizeBytes / MAX_PART_COUNT / MiB) * MiB;
  }
  return { kind: "multipart", sizeBytes, partSizeBytes, partCount: Math.ceil(sizeBytes / partSizeBytes) };
}

/** Byte range [start, end) and size of part `partNumber` (1-based). */
export function partRange(
  plan: { sizeBytes: number; partSizeBytes: number; partCount: number },
  partNumber: number,
): { startByte: number; endByte: number; sizeBytes: number } {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > plan.partCount)
    throw new Error(`Part number ${partNumber} is outside 1–${plan.partCount}`);
  const startByte = (partNumber - 1) * plan.partSizeBytes;
  const endByte = Math.min(plan.sizeBytes, startByte + plan.partSizeBytes);
  return { startByte, endByte, sizeBytes: endByte - startByte };
}
