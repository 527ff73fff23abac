"use client";

import { useEffect } from "react";
import { playersToPause } from "./audible-media";

/**
 * Keeps one soundtrack at a time, app-wide: when a player starts with sound (a clip's dialog
 * over the source video, say), every other player heard at that moment pauses. Renders nothing;
 * mount it once. Listens on the document in the capture phase because `play` and
 * `volumechange` do not bubble; `volumechange` catches a muted player being turned up.
 */
export function OneAudiblePlayer() {
  useEffect(() => {
    const pauseOthers = (event: Event) => {
      const started = event.target;
      if (!(started instanceof HTMLMediaElement)) return;
      const players = document.querySelectorAll<HTMLMediaElement>("video, audio");
      for (const player of playersToPause(started, players)) player.pause();
    };
    document.addEventListener("play", pauseOthers, true);
    document.addEventListener("volumechange", pauseOthers, true);
    return () => {
      document.removeEventListener("play", pauseOthers, true);
      document.removeEventListener("volumechange", pauseOthers, true);
    };
  }, []);
  return null;
}
