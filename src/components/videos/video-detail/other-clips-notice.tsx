"use client";

import { useEffect, useState } from "react";
import { Alert } from "@/components/ui/alert";
import type { VideoView } from "../video-api";
import {
  type ClipRange,
  forgetOtherClipsAsked,
  otherClipsOutcome,
  recallOtherClipsAsked,
  sessionStore,
} from "./other-clips-outcome";

/**
 * Says so when "Other clips…" (asked in this tab) brought back the clips the video already had:
 * otherwise the page only returns to them. Shown while the page shows that ready video.
 */
export function OtherClipsNotice({
  videoId,
  status,
  updatedAt,
  clips,
}: Pick<VideoView, "status" | "updatedAt"> & { videoId: string; clips: ClipRange[] }) {
  const [sameClipsAt, setSameClipsAt] = useState<string | null>(null);

  useEffect(() => {
    const store = sessionStore();
    const asked = store && recallOtherClipsAsked(store, videoId);
    if (!store || !asked) return;
    const outcome = otherClipsOutcome(asked, { status, updatedAt }, clips);
    if (outcome === "waiting") return;
    forgetOtherClipsAsked(store, videoId);
    if (outcome === "same clips") setSameClipsAt(updatedAt);
  }, [videoId, status, updatedAt, clips]);

  if (status !== "READY" || sameClipsAt !== updatedAt) return null;
  return <Alert>No other moments stood out; these are still this video's best clips.</Alert>;
}
