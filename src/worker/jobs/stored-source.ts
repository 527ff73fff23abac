import type { S3Client } from "@aws-sdk/client-s3";
import type { Video } from "@/db/repos/video-repo";
import type { MediaProbe } from "@/engine/types";
import type { HttpHeaders } from "@/media/probe-args";
import { needsSeekableCopy } from "@/media/seekable-copy";
import { presignGet } from "@/storage/presign";
import { sourceRequestHeaders } from "./pinned-source";

/** A stored object a render can cut clips from in place, and the ETag every read must match. */
export type SeekableStoredSource = { key: string; ifMatch: string | null };

/**
 * What a render can read where it is stored: the uploaded source (only as upload-complete
 * checked it, pinned-source.ts), or for a stream capture, which cannot be cut exactly as
 * stored (seekable-copy.ts), the seekable copy the analysis stored. Null for a capture without
 * one yet: it must be downloaded and copied.
 */
export function seekableStoredSource(
  video: Pick<Video, "sourceKey" | "sourceEtag" | "seekableCopyKey">,
  probe: Pick<MediaProbe, "formatName">,
): SeekableStoredSource | null {
  if (!needsSeekableCopy(probe.formatName)) return { key: video.sourceKey, ifMatch: video.sourceEtag };
  return video.seekableCopyKey ? { key: video.seekableCopyKey, ifMatch: null } : null;
}

/**
 * A presigned URL of it for ffmpeg, which seeks in it with range requests: a 30 s clip of a
 * 2-hour video reads a few MB instead of downloading gigabytes. Valid for an hour (one clip's
 * passes); the headers every request sends carry its ETag, so a replaced file answers 412.
 */
export async function storedSourceUrl(options: {
  s3: S3Client;
  bucket: string;
  source: SeekableStoredSource;
}): Promise<{ url: string; headers: HttpHeaders | undefined }> {
  const { s3, bucket, source } = options;
  const { url } = await presignGet({ client: s3, bucket, key: source.key, expiresInSeconds: 60 * 60 });
  return {
    url,
    headers: source.ifMatch ? sourceRequestHeaders({ sourceEtag: source.ifMatch }) : undefined,
  };
}
