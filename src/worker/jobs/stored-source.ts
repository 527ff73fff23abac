import type { S3Client } from "@aws-sdk/client-s3";
import type { Video } from "@/db/repos/video-repo";
import type { MediaProbe } from "@/engine/types";
import type { HttpHeaders } from "@/media/probe-args";
import { MediaCommandError } from "@/media/run-ffmpeg";
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
 * Renders from the stored file where it is (`source`): ffmpeg seeks in it over HTTP range
 * requests, so a 30 s clip of a 2-hour video reads a few MB instead of downloading gigabytes.
 * Where there is none, or ffmpeg fails on it (some containers seek badly over HTTP), from the
 * local copy `localSource` makes then; `onFallback` hears why. Any other failure (storing the
 * render, recording it, a timeout) is thrown: a download and a second encode would not mend it.
 * The URL lives an hour (one clip's passes), and every request carries the source's ETag: a
 * replaced file answers 412, and the download that follows says so (ObjectChangedError).
 */
export async function renderFromStoredSource<T>(options: {
  s3: S3Client;
  bucket: string;
  source: SeekableStoredSource | null;
  signal: AbortSignal;
  render: (sourcePath: string, sourceHttpHeaders?: HttpHeaders) => Promise<T>;
  localSource: () => Promise<string>;
  onFallback: (error: unknown) => void;
}): Promise<T> {
  const { s3, bucket, source, signal, render } = options;
  if (source) {
    try {
      const { url } = await presignGet({ client: s3, bucket, key: source.key, expiresInSeconds: 60 * 60 });
      return await render(
        url,
        source.ifMatch ? sourceRequestHeaders({ sourceEtag: source.ifMatch }) : undefined,
      );
    } catch (error) {
      if (signal.aborted || !isFfmpegFailure(error)) throw error;
      options.onFallback(error);
    }
  }
  return render(await options.localSource());
}

/** How deep a render's errors wrap ffmpeg's (render-clip.ts words a missing picture over it). */
const MAX_CAUSE_DEPTH = 4;

/**
 * ffmpeg ran and failed (a non-zero exit), as it does on a source it cannot seek in over HTTP,
 * itself or as the cause of the render's error. Not one it gave up on: a timeout would only
 * repeat on the local copy, and a cancel or a kill (a null exit code) is no fault of the source.
 */
function isFfmpegFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && current instanceof Error; depth++) {
    if (current instanceof MediaCommandError) {
      const { timedOut, exitCode } = current.details;
      return !timedOut && exitCode !== null && exitCode !== 0;
    }
    current = current.cause;
  }
  return false;
}
