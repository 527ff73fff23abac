import "server-only";
import { GetObjectCommand, type S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { contentDisposition } from "./presign";

/**
 * Short-lived GET URLs for media shown in the browser: clips, their pictures, video
 * thumbnails. Signing time is rounded down to a window, so the same object gets the same URL
 * on every refresh within it: a page that re-renders while polling keeps its <video> and <img>
 * elements (and the browser its cached copy) instead of reloading them.
 * Each URL stays valid for at least `MEDIA_URL_MIN_VALID_SECONDS` after it is handed out.
 */
export const MEDIA_URL_WINDOW_SECONDS = 5 * 60;
export const MEDIA_URL_MIN_VALID_SECONDS = 10 * 60;

export type MediaUrl = { url: string; expiresAt: string };

export async function presignMediaUrl(options: {
  presigner: S3Client;
  bucket: string;
  key: string;
  /** Offered as the file name when the browser saves it (makes the URL a download). */
  downloadFilename?: string;
  now?: number;
}): Promise<MediaUrl> {
  const nowMs = options.now ?? Date.now();
  const windowMs = MEDIA_URL_WINDOW_SECONDS * 1000;
  const signingMs = Math.floor(nowMs / windowMs) * windowMs;
  const expiresInSeconds = MEDIA_URL_WINDOW_SECONDS + MEDIA_URL_MIN_VALID_SECONDS;
  const url = await getSignedUrl(
    options.presigner,
    new GetObjectCommand({
      Bucket: options.bucket,
      Key: options.key,
      ResponseContentDisposition: options.downloadFilename
        ? contentDisposition(options.downloadFilename)
        : undefined,
    }),
    { expiresIn: expiresInSeconds, signingDate: new Date(signingMs) },
  );
  return { url, expiresAt: new Date(signingMs + expiresInSeconds * 1000).toISOString() };
}
