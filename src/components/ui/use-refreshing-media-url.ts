"use client";

import { type SyntheticEvent, useRef, useState } from "react";
import { createMediaUrlRefresher, type MediaFailureOutcome } from "./media-url-refresher";

export type MediaProblem = Exclude<MediaFailureOutcome["kind"], "retry">;

/**
 * A <video>'s signed URL, replaced by a freshly signed one when it fails (see
 * media-url-refresher.ts), resuming at the same moment. Spread `mediaEvents` on the element.
 * A different `url` from the page (a refreshed server render) starts over with it.
 */
export function useRefreshingMediaUrl(url: string | null, fetchFreshUrl: () => Promise<string | null>) {
  const [state, setState] = useState(() => ({
    pageUrl: url,
    url,
    problem: null as MediaProblem | null,
    refresher: createMediaUrlRefresher(),
  }));
  if (state.pageUrl !== url) {
    setState({ pageUrl: url, url, problem: null, refresher: createMediaUrlRefresher() });
  }
  // Where to carry on once the fresh URL's metadata is in.
  const resumeRef = useRef<{ atSeconds: number; playing: boolean } | null>(null);
  const { refresher } = state;

  const onError = (event: SyntheticEvent<HTMLVideoElement>) => {
    const player = event.currentTarget;
    resumeRef.current = { atSeconds: player.currentTime, playing: !player.paused && !player.ended };
    void refresher.failed(fetchFreshUrl).then((outcome) =>
      setState((current) => {
        // The page handed over a new URL meanwhile: that one wins.
        if (current.refresher !== refresher) return current;
        return outcome.kind === "retry"
          ? { ...current, url: outcome.url }
          : { ...current, problem: outcome.kind };
      }),
    );
  };

  const onLoadedMetadata = (event: SyntheticEvent<HTMLVideoElement>) => {
    refresher.loaded();
    const resume = resumeRef.current;
    resumeRef.current = null;
    if (!resume) return;
    const player = event.currentTarget;
    if (resume.atSeconds > 0) player.currentTime = resume.atSeconds;
    if (resume.playing) {
      void player.play().catch(() => {
        // Autoplay refused: the player waits at the old position.
      });
    }
  };

  const reportUnplayable = () => setState((current) => ({ ...current, problem: "unplayable" }));

  return {
    url: state.url,
    problem: state.problem,
    reportUnplayable,
    mediaEvents: { onError, onLoadedMetadata },
  };
}
