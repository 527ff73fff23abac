import { createReadStream, createWriteStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { abortMultipartUpload, createMultipartUpload } from "./multipart";
import { changedObjectOr } from "./object-changed";
import { isMissingObject } from "./s3-errors";
import { uploadStreamAsMultipart } from "./upload-stream";

/**
 * Object-storage I/O for the worker and the server: sources stream to disk, and renders go up
 * from disk one part (at most MULTIPART_UPLOAD_PART_BYTES) at a time, so no whole video is held
 * in memory; stage results and subtitle files are small text documents.
 */
export type Bucket = { s3: S3Client; bucket: string };

/**
 * Streams an object to a file; `onProgress` gets bytes written and the object's size. With
 * `ifMatch` (an ETag) only that object is read: another one stored under the key since throws
 * ObjectChangedError.
 */
export async function downloadObjectToFile(
  options: Bucket & {
    key: string;
    filePath: string;
    ifMatch?: string | null;
    signal?: AbortSignal;
    onProgress?: (writtenBytes: number, totalBytes: number | undefined) => void;
  },
): Promise<number> {
  const output = await options.s3
    .send(
      new GetObjectCommand({
        Bucket: options.bucket,
        Key: options.key,
        IfMatch: options.ifMatch ?? undefined,
      }),
      { abortSignal: options.signal },
    )
    .catch((error: unknown) => {
      throw changedObjectOr(error, options.key, options.ifMatch);
    });
  if (!(output.Body instanceof Readable)) throw new Error(`Object ${options.key} has no readable body`);
  const totalBytes = output.ContentLength;
  let writtenBytes = 0;
  output.Body.on("data", (chunk: Buffer) => {
    writtenBytes += chunk.length;
    options.onProgress?.(writtenBytes, totalBytes);
  });
  await pipeline(output.Body, createWriteStream(options.filePath), { signal: options.signal });
  if (totalBytes !== undefined && writtenBytes !== totalBytes) {
    throw new Error(`Download of ${options.key} stopped at ${writtenBytes} of ${totalBytes} bytes`);
  }
  return writtenBytes;
}

/** A small text object's body, or undefined when there is no such object. */
export async function readTextObject(
  options: Bucket & { key: string; signal?: AbortSignal },
): Promise<string | undefined> {
  try {
    const output = await options.s3.send(new GetObjectCommand({ Bucket: options.bucket, Key: options.key }), {
      abortSignal: options.signal,
    });
    return await output.Body?.transformToString("utf8");
  } catch (error) {
    if (isMissingObject(error)) return undefined;
    throw error;
  }
}

/** A JSON object's parsed body, or undefined when there is no such object (or it is not JSON). */
export async function readJsonObject(
  options: Bucket & { key: string; signal?: AbortSignal },
): Promise<unknown> {
  const text = await readTextObject(options);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function writeJsonObject(
  options: Bucket & { key: string; value: unknown; signal?: AbortSignal },
) {
  await writeTextObject({ ...options, text: JSON.stringify(options.value), contentType: "application/json" });
}

/** A small text object (a JSON document, a subtitle file), UTF-8. */
export async function writeTextObject(
  options: Bucket & { key: string; text: string; contentType: string; signal?: AbortSignal },
) {
  await writeObject({ ...options, body: options.text, contentType: `${options.contentType}; charset=utf-8` });
}

/** A small object held in memory (a thumbnail, a document), in one PUT. */
export async function writeObject(
  options: Bucket & { key: string; body: Buffer | string; contentType: string; signal?: AbortSignal },
) {
  await options.s3.send(
    new PutObjectCommand({
      Bucket: options.bucket,
      Key: options.key,
      Body: options.body,
      ContentType: options.contentType,
    }),
    { abortSignal: options.signal },
  );
}

/**
 * Above this a file goes up in parts: one PUT is limited to 5 GB on S3, and a part that fails
 * is sent again alone. A stream capture's seekable copy can be several GB.
 */
export const MULTIPART_UPLOAD_PART_BYTES = 64 * 1024 ** 2;
/** S3 takes at most this many parts: bigger files get bigger parts. */
const MAX_UPLOAD_PARTS = 10_000;

/** Stores a file as an object: in one PUT, or as a multipart upload when it is large. */
export async function uploadFile(
  options: Bucket & {
    key: string;
    filePath: string;
    contentType: string;
    signal?: AbortSignal;
    /** Part size for a multipart upload (tests use S3's 5 MB minimum). */
    partSizeBytes?: number;
  },
): Promise<void> {
  const { size } = await stat(options.filePath);
  const partSizeBytes = Math.max(
    options.partSizeBytes ?? MULTIPART_UPLOAD_PART_BYTES,
    Math.ceil(size / MAX_UPLOAD_PARTS),
  );
  if (size > partSizeBytes) {
    await uploadFileInParts({ ...options, sizeBytes: size, partSizeBytes });
    return;
  }
  await options.s3.send(
    new PutObjectCommand({
      Bucket: options.bucket,
      Key: options.key,
      // Read whole (at most one part's size), not streamed: a stream is spent by the first
      // attempt, so the SDK cannot send it again when a connection drops (a keep-alive
      // connection the server closed as it was reused), and the upload would fail outright.
      Body: await readFile(options.filePath),
      ContentLength: size,
      ContentType: options.contentType,
    }),
    { abortSignal: options.signal },
  );
}

async function uploadFileInParts(
  options: Bucket & {
    key: string;
    filePath: string;
    contentType: string;
    sizeBytes: number;
    partSizeBytes: number;
    signal?: AbortSignal;
  },
): Promise<void> {
  const { s3, bucket, key, signal } = options;
  const uploadId = await createMultipartUpload({ s3, bucket, key, contentType: options.contentType, signal });
  try {
    const { sizeBytes } = await uploadStreamAsMultipart({
      s3,
      bucket,
      key,
      uploadId,
      stream: createReadStream(options.filePath),
      partSizeBytes: options.partSizeBytes,
      maxBytes: options.sizeBytes,
      signal,
    });
    if (sizeBytes !== options.sizeBytes)
      throw new Error(`Upload of ${key} stopped at ${sizeBytes} of ${options.sizeBytes} bytes`);
  } catch (error) {
    // No half-uploaded parts left to pay for.
    await abortMultipartUpload({ s3, bucket, key, uploadId }).catch(() => undefined);
    throw error;
  }
}

/** Deletes the given objects; ones already gone are fine. */
export async function deleteObjects(options: Bucket & { keys: string[] }): Promise<void> {
  if (options.keys.length === 0) return;
  await options.s3.send(
    new DeleteObjectsCommand({
      Bucket: options.bucket,
      Delete: { Objects: options.keys.map((Key) => ({ Key })), Quiet: true },
    }),
  );
}

/** Content types of the files a render produces, by extension. */
export function contentTypeOf(filePath: string): string {
  if (filePath.endsWith(".mp4")) return "video/mp4";
  if (filePath.endsWith(".jpg") || filePath.endsWith(".jpeg")) return "image/jpeg";
  if (filePath.endsWith(".webp")) return "image/webp";
  if (filePath.endsWith(".json")) return "application/json";
  return "application/octet-stream";
}
