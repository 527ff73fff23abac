import { HeadObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { changedObjectOr } from "./object-changed";
import { isMissingObject } from "./s3-errors";

export type ObjectHead = { sizeBytes: number; contentType: string | null; etag: string | null };

/**
 * Size and type of a stored object, or undefined when there is none. With `ifMatch` (an ETag),
 * an object stored under the key since with another ETag throws ObjectChangedError.
 */
export async function headObject(options: {
  s3: S3Client;
  bucket: string;
  key: string;
  ifMatch?: string | null;
  signal?: AbortSignal;
}): Promise<ObjectHead | undefined> {
  try {
    const output = await options.s3.send(
      new HeadObjectCommand({
        Bucket: options.bucket,
        Key: options.key,
        IfMatch: options.ifMatch ?? undefined,
      }),
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
    if (isMissingObject(error)) return undefined;
    throw changedObjectOr(error, options.key, options.ifMatch);
  }
}
