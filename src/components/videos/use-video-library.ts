"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { type VideoView, videoApi } from "./video-api";
import { libraryNeedsPolling, type UploadingHere } from "./video-polling";

const POLL_INTERVAL_MS = 3_000;

/**
 * The creator's videos, newest first, kept current without a reload: while any video is still
 * on its way (or an upload is running) the first page is fetched again every few seconds. A
 * video waiting for bytes no upload in this tab sends (`uploadingHere`) does not count: it may
 * wait for a day.
 * Older pages ("Load more") are appended and kept.
 */
export function useVideoLibrary(options: {
  initialVideos: VideoView[];
  initialCursor: string | null;
  uploadsActive: boolean;
  /** Videos whose upload runs in this tab. */
  uploadingHere: UploadingHere;
}) {
  const [videos, setVideos] = useState(options.initialVideos);
  const [cursor, setCursor] = useState(options.initialCursor);
  const [loadingMore, setLoadingMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inFlight = useRef<AbortController | null>(null);
  // Once older pages are loaded, their cursor is the one to continue from.
  const loadedOlderPages = useRef(false);

  const refresh = useCallback(async () => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const page = await videoApi.list(null, controller.signal);
      const oldestOnPage = page.videos.at(-1)?.id;
      // The first page replaces what it covers; older pages already loaded stay (ids sort by time).
      setVideos((current) => [
        ...page.videos,
        ...(loadedOlderPages.current && oldestOnPage
          ? current.filter((video) => video.id < oldestOnPage)
          : []),
      ]);
      if (!loadedOlderPages.current) setCursor(page.nextCursor);
      setError(null);
    } catch (caught) {
      if (!controller.signal.aborted)
        setError(caught instanceof Error ? caught.message : "Could not refresh the list.");
    }
  }, []);

  const loadMore = useCallback(async () => {
    if (!cursor) return;
    setLoadingMore(true);
    try {
      const page = await videoApi.list(cursor);
      setVideos((current) => [
        ...current,
        ...page.videos.filter((video) => !current.some((known) => known.id === video.id)),
      ]);
      setCursor(page.nextCursor);
      loadedOlderPages.current = true;
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "Could not load more videos.");
    } finally {
      setLoadingMore(false);
    }
  }, [cursor]);

  const remove = useCallback(
    async (videoId: string) => {
      await videoApi.remove(videoId);
      setVideos((current) => current.filter((video) => video.id !== videoId));
      void refresh();
    },
    [refresh],
  );

  const needsPolling = libraryNeedsPolling({
    videos,
    uploadsActive: options.uploadsActive,
    uploadingHere: options.uploadingHere,
  });
  useEffect(() => {
    if (!needsPolling) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") void refresh();
    }, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [needsPolling, refresh]);

  useEffect(() => () => inFlight.current?.abort(), []);

  return { videos, hasMore: cursor !== null, loadingMore, loadMore, refresh, remove, error };
}
