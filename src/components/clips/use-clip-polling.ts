"use client";

import { useEffect, useState } from "react";
import type { ClipDetail } from "@/server/clips/get-clip";
import { fetchClip, isRendering } from "./clip-api";

const POLL_INTERVAL_MS = 3_000;

/**
 * A clip kept current: while it renders, it is re-read every few seconds until the render is
 * READY (or FAILED). `setClip` takes a newer version (e.g. the answer to a range edit).
 */
export function useClipPolling(initialClip: ClipDetail) {
  const [clip, setClip] = useState(initialClip);
  const rendering = isRendering(clip);
  const { clipId } = clip;

  useEffect(() => {
    if (!rendering) return;
    const controller = new AbortController();
    const timer = setInterval(() => {
      fetchClip(clipId, controller.signal)
        .then((fresh) => setClip((current) => (fresh.version >= current.version ? fresh : current)))
        .catch(() => {
          // A missed poll is retried on the next tick.
        });
    }, POLL_INTERVAL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [clipId, rendering]);

  return [clip, setClip] as const;
}
