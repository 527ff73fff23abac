"use client";

import { type ReactNode, useCallback } from "react";
import { useRefreshingPictureUrl } from "@/components/ui/use-refreshing-media-url";
import { videoApi } from "./video-api";

/**
 * A video's thumbnail that keeps showing on a page left open past its URL's expiry: a picture
 * that first loads late gets one freshly signed URL, and `fallback` shows only if that fails too.
 */
export function VideoThumbnailImage({
  videoId,
  url,
  fallback,
}: {
  videoId: string;
  url: string | null;
  fallback: ReactNode;
}) {
  const fetchFreshUrl = useCallback(
    async () => (await videoApi.thumbnailUrl(videoId)).thumbnail?.url ?? null,
    [videoId],
  );
  const thumbnail = useRefreshingPictureUrl(url, fetchFreshUrl);
  if (!thumbnail.url || thumbnail.problem) return fallback;
  return (
    // Presigned, short-lived storage URLs: next/image's optimizer would cache them past expiry.
    // biome-ignore lint/performance/noImgElement: see above
    <img src={thumbnail.url} alt="" className="h-full w-full object-cover" {...thumbnail.imageEvents} />
  );
}
