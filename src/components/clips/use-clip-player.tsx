"use client";

import { useState } from "react";
import type { ClipDetail } from "@/server/clips/get-clip";
import type { ClipView } from "@/server/clips/to-clip-view";
import { fetchClip } from "./clip-api";
import { ClipPlayerDialog } from "./clip-player-dialog";

/**
 * Plays a listed clip in a dialog: its short-lived media URLs are fetched when it is opened,
 * not with the list (they would expire while the page stays open). Render `dialog` once.
 */
export function useClipPlayer(onError: (message: string) => void) {
  const [playing, setPlaying] = useState<ClipDetail | null>(null);
  const [opening, setOpening] = useState<string | null>(null);

  const play = async (clip: ClipView) => {
    setOpening(clip.clipId);
    try {
      setPlaying(await fetchClip(clip.clipId));
    } catch (caught) {
      onError(caught instanceof Error ? caught.message : "This clip could not be opened.");
    } finally {
      setOpening(null);
    }
  };

  const dialog = (
    <ClipPlayerDialog
      open={playing !== null}
      onClose={() => setPlaying(null)}
      clip={playing}
      footer={playing ? `Score ${playing.score} · from ${playing.videoTitle}` : undefined}
    />
  );
  return { play, opening, dialog };
}
