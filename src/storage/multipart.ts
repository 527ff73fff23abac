import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { s3StatusOf } from "./s3-errors";

/**
 * Server-side multipart bookkeeping (the parts themselves go from the browser straight to S3
 * through presigned URLs, or from the import worker). S3-compatible servers differ: the
 * embedded one has neither ListParts nor AbortMultipartUpload, which these functions report
 * as "unsupported" instead of failing, so callers can fall back.
 */
export type StoredPart = { partNumber: number; etag: string; sizeBytes: number | null };

export async function createMultipartUpload(options: {
  s3: S3Client;
  bucket: string;
  key: string;
  contentType: string;
  signal?: AbortSignal;
}): Promise<string> {
  const output = await options.s3.send(
    new CreateMultipartUploadCommand({
      Bucket: options.bucket,
      Key: options.key,
      ContentType: options.contentType,
    }),
    { abortSignal: options.signal },
  );
  if (!output.UploadId) throw new Error("S3 returned no upload id");
  return output.UploadId;
}

export async function completeMultipartUpload(options: {
  s3: S3Client;
  bucket: string;
  key: string;
  uploadId: string;
  parts: { partNumber: number; etag: string }[];
  signal?: AbortSignal;
}): Promise<void> {
  const parts = [...options.parts].sort((a, b) => a.partNumber - b.partNumber);
  await options.s3.send(
    new CompleteMultipartUploadCommand({
      Bucket: options.bucket,
      Key: options.key,
      UploadId: options.uploadId,
      MultipartUpload: {
        Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: quoteEtag(part.etag) })),
      },
    }),
    { abortSignal: options.signal },
  );
}

/** The parts S3 holds for an open upload, or "unsupported" where the server cannot list them. */
export async function listStoredParts(options: {
  s3: S3Client;
  bucket: string;
  key: string;
  uploadId: string;
}): Promise<StoredPart[] | "unsupported" | "no-such-upload"> {
  const parts: StoredPart[] = [];
  let marker: string | undefined;
  try {
    for (;;) {
      const output = await options.s3.send(
        new ListPartsCommand({
          Bucket: options.bucket,
          Key: options.key,
          UploadId: options.uploadId,
          PartNumberMarker: marker,
        }),
      );
      for (const part of output.Parts ?? []) {
        if (part.PartNumber && part.ETag)
          parts.push({
            partNumber: part.PartNumber,
            etag: unquoteEtag(part.ETag),
            sizeBytes: part.Size ?? null,
          });
      }
      if (!output.IsTruncated || !output.NextPartNumberMarker) break;
      marker = output.NextPartNumberMarker;
    }
  } catch (error) {
    if (isUnsupported(error)) return "unsupported";
    if (errorName(error) === "NoSuchUpload") return "no-such-upload";
    throw error;
  }
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

/** Aborts an open upload; an upload already gone is fine. */
export async function abortMultipartUpload(options: {
  s3: S3Client;
  bucket: string;
  key: string;
  uploadId: string;
}): Promise<"aborted" | "gone" | "unsupported"> {
  try {
    await options.s3.send(
      new AbortMultipartUploadCommand({
        Bucket: options.bucket,
        Key: options.key,
        UploadId: options.uploadId,
      }),
    );
    return "aborted";
  } catch (error) {
    if (errorName(error) === "NoSuchUpload") return "gone";
    if (isUnsupported(error)) return "unsupported";
    throw error;
  }
}

function errorName(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}

function isUnsupported(error: unknown): boolean {
  const status = s3StatusOf(error);
  return (
    errorName(error) === "MethodNotAllowed" ||
    errorName(error) === "NotImplemented" ||
    status === 405 ||
    status === 501
  );
}

export const unquoteEtag = (etag: string) => etag.replace(/^(W\/)?"|"$/g, "");
export const quoteEtag = (etag: string) => `"${unquoteEtag(etag)}"`;
