"use client";

import { type SyntheticEvent, useRef, useState } from "react";
import { createMediaUrlRefresher, type MediaFailureOutcome } from "./media-url-refresher";
import { keepsCurrentMediaUrl } from "./same-media-object";

export type MediaProblem = Exclude<MediaFailureOutcome["kind"], "retry">;

/**
 * A signed URL, replaced by a freshly signed one when it fails (see media-url-refresher.ts).
 * The element tells `loaded` and `failed`; `url` is what it should show, `problem` why it
 * cannot. A different `url` from the page (a refreshed server render) starts over with it,
 * unless it only signs the same object again while the current URL works: then the element
 * keeps its URL, and a playing video its place (see keepsCurrentMediaUrl).
 */
function useRefreshingUrl(url: string | null, fetchFreshUrl: () => Promise<string | null>) {
  const [state, setState] = useState(() => ({
    pageUrl: url,
    url,
    /** The current URL failed to load (a fresh one may be on its way). */
    failing: false,
    problem: null as MediaProblem | null,
    refresher: createMediaUrlRefresher(),
  }));
  if (state.pageUrl !== url) {
    if (keepsCurrentMediaUrl({ currentUrl: state.url, currentFailed: state.failing, pageUrl: url })) {
      setState({ ...state, pageUrl: url });
    } else {
      setState({ pageUrl: url, url, failing: false, problem: null, refresher: createMediaUrlRefresher() });
    }
  }
  const { refresher } = state;

  const failed = () => {
    setState((current) => (current.refresher === refresher ? { ...current, failing: true } : current));
    void refresher.failed(fetchFreshUrl).then((outcome) =>
      setState((current) => {
        // The page handed over a new URL meanwhile: that one wins.
        if (current.refresher !== refresher) return current;
        return outcome.kind === "retry"
          ? { ...current, url: outcome.url, failing: false }
          : { ...current, problem: outcome.kind };
      }),
    );
  };

  const reportUnplayable = () => setState((current) => ({ ...current, problem: "unplayable" }));

  return { url: state.url, problem: state.problem, loaded: refresher.loaded, failed, reportUnplayable };
}

/**
 * A player's <video> URL that survives expiry, resuming at the same moment on the fresh one.
 * Spread `mediaEvents` on the element.
 */
export function useRefreshingMediaUrl(url: string | null, fetchFreshUrl: () => Promise<string | null>) {
  const source = useRefreshingUrl(url, fetchFreshUrl);
  // Where to carry on once the fresh URL's metadata is in.
  const resumeRef = useRef<{ atSeconds: number; playing: boolean } | null>(null);

  const onError = (event: SyntheticEvent<HTMLVideoElement>) => {
    const player = event.currentTarget;
    resumeRef.current = { atSeconds: player.currentTime, playing: !player.paused && !player.ended };
    source.failed();
  };

  const onLoadedMetadata = (event: SyntheticEvent<HTMLVideoElement>) => {
    source.loaded();
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

  return {
    url: source.url,
    problem: source.problem,
    reportUnplayable: source.reportUnplayable,
    mediaEvents: { onError, onLoadedMetadata },
  };
}

/**
 * A picture's URL (a thumbnail <img>, or a muted looping preview) that survives expiry: an
 * image that first loads after the page has aged (lazily, on scroll or hover) gets one fresh
 * URL before it counts as broken. Spread `imageEvents` on an <img>, `videoEvents` on a <video>.
 */
export function useRefreshingPictureUrl(url: string | null, fetchFreshUrl: () => Promise<string | null>) {
  const picture = useRefreshingUrl(url, fetchFreshUrl);
  const { failed, loaded } = picture;
  return {
    url: picture.url,
    problem: picture.problem,
    imageEvents: { onError: failed, onLoad: loaded },
    videoEvents: { onError: failed, onLoadedData: loaded },
  };
}
