import { GetObjectCommand, PutObjectCommand, type S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";

/**
 * Presigned requests. Browser-facing URLs are signed with `clients.s3Presigner` (the endpoint
 * the browser reaches; the host is part of the signature), server-side consumers (ffprobe in
 * the worker) with `clients.s3`. URLs are short-lived, and uploads pin what they may carry:
 * the Content-Type, and the exact Content-Length, are signed headers, so a request with a
 * different type or size is refused by S3 itself. A single PUT also signs `If-None-Match: *`:
 * its URL can store the file once, and never replace it (S3 answers 412 once it exists).
 */
export type PresignedRequest = {
  method: "PUT" | "GET";
  url: string;
  /** Headers the request must carry exactly (signed). The browser adds Content-Length itself. */
  headers: Record<string, string>;
  expiresAt: string;
};

/** Upload URLs live long enough for one part or a single file on a slow link, not longer. */
export const UPLOAD_URL_TTL_SECONDS = 60 * 60;
/** Download and probe URLs. */
export const DOWNLOAD_URL_TTL_SECONDS = 15 * 60;

const expiresAtOf = (expiresInSeconds: number, now = Date.now()) =>
  new Date(now + expiresInSeconds * 1000).toISOString();

// A single PUT of a whole file, pinned to its content type and size, that only creates.
export async function presignSinglePut(options: {
  presigner: S3Client;
  bucket: string;
  key: string;
  contentType: string;
  contentLengthBytes: number;
  expiresInSeconds?: number;
}): Promise<PresignedRequest> {
  const expiresInSeconds = options.expiresInSeconds ?? UPLOAD_URL_TTL_SECONDS;
  const url = await getSignedUrl(
    options.presigner,
    new PutObjectCommand({
      Bucket: options.bucket,
      Key: options.key,
      ContentType: options.contentType,
      ContentLength: options.contentLengthBytes,
      // Until it expires, the URL would otherwise replace a video's source after it was
      // checked, or even once its clips are made.
      IfNoneMatch: "*",
    }),
    {
      expiresIn: expiresInSeconds,
      signableHeaders: new Set(["content-type", "content-length", "if-none-match"]),
    },
  );
  return {
    method: "PUT",
    url,
    headers: { "content-type": options.contentType, "if-none-match": "*" },
    expiresAt: expiresAtOf(expiresInSeconds),
  };
}

// One part of a multipart upload, pinned to that part's exact size.
export async function presignUploadPart(options: {
  presigner: S3Client;
  bucket: string;
  key: string;
  uploadId: string;
  partNumber: number;
  contentLengthBytes: number;
  expiresInSeconds?: number;
}): Promise<PresignedRequest> {
  const expiresInSeconds = options.expiresInSeconds ?? UPLOAD_URL_TTL_SECONDS;
  const url = await getSignedUrl(
    options.presigner,
    new UploadPartCommand({
      Bucket: options.bucket,
      Key: options.key,
      UploadId: options.uploadId,
      PartNumber: options.partNumber,
      ContentLength: options.contentLengthBytes,
    }),
    { expiresIn: expiresInSeconds, signableHeaders: new Set(["content-length"]) },
  );
  return { method: "PUT", url, headers: {}, expiresAt: expiresAtOf(expiresInSeconds) };
}

// A GET of one object (downloads, previews, ffprobe over HTTP).
export async function presignGet(options: {
  client: S3Client;
  bucket: string;
  key: string;
  expiresInSeconds?: number;
  /** Offered as the file name when the browser saves it. */
  downloadFilename?: string;
  /** Signed as of this time rather than now (the URL lives `expiresInSeconds` from it). */
  signingDate?: Date;
}): Promise<PresignedRequest> {
  const expiresInSeconds = options.expiresInSeconds ?? DOWNLOAD_URL_TTL_SECONDS;
  const signingDate = options.signingDate ?? new Date();
  const url = await getSignedUrl(
    options.client,
    new GetObjectCommand({
      Bucket: options.bucket,
      Key: options.key,
      ResponseContentDisposition: options.downloadFilename
        ? contentDisposition(options.downloadFilename)
        : undefined,
    }),
    { expiresIn: expiresInSeconds, signingDate },
  );
  return {
    method: "GET",
    url,
    headers: {},
    expiresAt: expiresAtOf(expiresInSeconds, signingDate.getTime()),
  };
}

/**
 * `attachment` with a plain-ASCII version of the name. Characters outside letters, digits,
 * space, `.`, `_` and `-` become `_`: the embedded S3 server checks query signatures with
 * JavaScript's encodeURIComponent, which leaves `'()*!` unescaped where SigV4 escapes them, so
 * RFC 6266's `filename*=UTF-8''…` (or a name with brackets) would fail there.
 */
export function contentDisposition(filename: string): string {
  const safe = filename.replace(/[^A-Za-z0-9 ._-]/g, "_").slice(0, 150) || "download";
  return `attachment; filename="${safe}"`;
}
