"use client";

import { useRouter } from "next/navigation";
import { useCallback } from "react";
import { AutoRefresh } from "@/components/ui/auto-refresh";
import { useUploads } from "./uploads-provider";
import type { VideoView } from "./video-api";
import { refreshIntervalFor } from "./video-polling";

/**
 * Refreshes a server-rendered page that shows these videos while they may change: often while
 * one is processing (or imported, or uploaded by this tab), seldom while one only waits for
 * bytes sent elsewhere. An upload of this tab that creates or completes a video refreshes it at once.
 */
export function VideosAutoRefresh({ videos }: { videos: Pick<VideoView, "id" | "status" | "origin">[] }) {
  const router = useRouter();
  const refreshNow = useCallback(() => router.refresh(), [router]);
  const { uploadsByVideo } = useUploads(refreshNow);
  const intervalMs = refreshIntervalFor(videos, uploadsByVideo);
  return intervalMs === null ? null : <AutoRefresh intervalMs={intervalMs} />;
}
