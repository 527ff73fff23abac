import { HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";

export type ObjectHead = { sizeBytes: number; contentType: string | null; etag: string | null };

/** Size and type of a stored object, or undefined when there is none. */
export async function headObject(options: {
  s3: S3Client;
  bucket: string;
  key: string;
  signal?: AbortSignal;
}): Promise<ObjectHead | undefined> {
  try {
    const output = await options.s3.send(
      new HeadObjectCommand({ Bucket: options.bucket, Key: options.key }),
      {
        abortSignal: options.signal,
      },
    );
    return {
      sizeBytes: output.ContentLength ?? 0,
      contentType: output.ContentType ?? null,
      etag: output.ETag ?? null,
    };
  } catch (error) {
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (
      status === 404 ||
      (error instanceof Error && (error.name === "NotFound" || error.name === "NoSuchKey"))
    )
      return undefined;
    throw error;
  }
}
