import { type S3Client, UploadPartCommand } from "@aws-sdk/client-s3";
import { completeMultipartUpload } from "./multipart";

/**
 * Streams bytes of unknown length into an object as a multipart upload, never holding more
 * than two parts in memory (one being filled, one being sent). Stops, and throws
 * `StreamTooLargeError`, as soon as more than `maxBytes` arrive.
 */
export class StreamTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the ${Math.round(maxBytes / 1024 ** 2)} MB limit.`);
    this.name = "StreamTooLargeError";
  }
}

export async function uploadStreamAsMultipart(options: {
  s3: S3Client;
  bucket: string;
  key: string;
  uploadId: string;
  stream: AsyncIterable<Uint8Array>;
  partSizeBytes: number;
  maxBytes: number;
  signal?: AbortSignal;
  onProgress?: (receivedBytes: number) => void;
}): Promise<{ sizeBytes: number; partCount: number }> {
  const { s3, bucket, key, uploadId, partSizeBytes, maxBytes, signal } = options;
  const parts: { partNumber: number; etag: string }[] = [];
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let receivedBytes = 0;
  let inFlight: Promise<void> = Promise.resolve();

  const sendPart = (body: Buffer) => {
    const partNumber = parts.length + 1;
    const slot = { partNumber, etag: "" };
    parts.push(slot);
    return s3
      .send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: key,
          UploadId: uploadId,
          PartNumber: partNumber,
          Body: body,
        }),
        { abortSignal: signal },
      )
      .then((output) => {
        if (!output.ETag) throw new Error(`S3 returned no ETag for part ${partNumber}`);
        slot.etag = output.ETag;
      });
  };

  const flush = async (final: boolean) => {
    while (pendingBytes >= partSizeBytes || (final && pendingBytes > 0)) {
      const whole = Buffer.concat(pending, pendingBytes);
      const size = Math.min(partSizeBytes, whole.length);
      const body = whole.subarray(0, size);
      const rest = whole.subarray(size);
      pending = rest.length > 0 ? [rest] : [];
      pendingBytes = rest.length;
      // One part in flight while the next fills: wait for the previous before sending this one.
      await inFlight;
      inFlight = sendPart(body);
      // Its failure is thrown by the next `await inFlight` (the next part, or the end); until
      // then it must not count as an unhandled rejection.
      inFlight.catch(() => {});
    }
  };

  for await (const chunk of options.stream) {
    signal?.throwIfAborted();
    receivedBytes += chunk.byteLength;
    if (receivedBytes > maxBytes) throw new StreamTooLargeError(maxBytes);
    pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    pendingBytes += chunk.byteLength;
    options.onProgress?.(receivedBytes);
    if (pendingBytes >= partSizeBytes) await flush(false);
  }
  await flush(true);
  await inFlight;
  if (parts.length === 0) {
    // An empty body still needs one (empty) part to complete.
    await sendPart(Buffer.alloc(0));
  }
  await completeMultipartUpload({ s3, bucket, key, uploadId, parts, signal });
  return { sizeBytes: receivedBytes, partCount: parts.length };
}
