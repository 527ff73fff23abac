import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from "@aws-sdk/client-s3";
import { formatCount } from "@/lib/format-count";

/**
 * Deletes every object under a prefix (a video's folder), a page of up to 1,000 at a time.
 * Repeatable: deleting what is already gone is not an error. Returns how many were deleted.
 */
export async function deletePrefix(options: {
  s3: S3Client;
  bucket: string;
  prefix: string;
}): Promise<number> {
  const { s3, bucket, prefix } = options;
  // Refuse prefixes that could reach beyond one folder (a bug must not empty the bucket).
  if (!prefix.endsWith("/") || prefix.split("/").filter(Boolean).length < 2)
    throw new Error(`Refusing to delete the broad prefix ${JSON.stringify(prefix)}`);
  let deleted = 0;
  for (;;) {
    // Always list from the start: the previous page is gone, so there is no continuation to keep.
    const listing = await s3.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, MaxKeys: 1000 }),
    );
    const keys = (listing.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
    if (keys.length === 0) return deleted;
    const output = await s3.send(
      new DeleteObjectsCommand({
        Bucket: bucket,
        Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
      }),
    );
    const errors = output.Errors ?? [];
    if (errors.length > 0) {
      const first = errors[0];
      throw new Error(
        `Could not delete ${formatCount(errors.length, "object")} under ${prefix}: ${first?.Code} ${first?.Message}`,
      );
    }
    deleted += keys.length;
  }
}

/** Every object key under a prefix (tests and checks; a video folder holds few objects). */
export async function listKeys(options: { s3: S3Client; bucket: string; prefix: string }): Promise<string[]> {
  const keys: string[] = [];
  let continuationToken: string | undefined;
  do {
    const listing = await options.s3.send(
      new ListObjectsV2Command({
        Bucket: options.bucket,
        Prefix: options.prefix,
        ContinuationToken: continuationToken,
      }),
    );
    for (const object of listing.Contents ?? []) if (object.Key) keys.push(object.Key);
    continuationToken = listing.IsTruncated ? listing.NextContinuationToken : undefined;
  } while (continuationToken);
  return keys;
}
