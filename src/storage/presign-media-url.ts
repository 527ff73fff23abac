import "server-only";
import type { S3Client } from "@aws-sdk/client-s3";
import { presignGet } from "./presign";

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
  const { url, expiresAt } = await presignGet({
    client: options.presigner,
    bucket: options.bucket,
    key: options.key,
    downloadFilename: options.downloadFilename,
    expiresInSeconds: MEDIA_URL_WINDOW_SECONDS + MEDIA_URL_MIN_VALID_SECONDS,
    signingDate: new Date(Math.floor(nowMs / windowMs) * windowMs),
  });
  return { url, expiresAt };
}
