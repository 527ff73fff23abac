/**
 * What a player does when its signed storage URL stops loading. Signed URLs expire while a page
 * stays open, and the browser reports a refused URL much like a file it cannot decode, so the
 * error alone cannot tell the two apart. A URL that has loaded before (or the page's own) earns
 * one fresh URL when it fails; a fresh URL that fails before it ever loaded means the file is
 * the problem, not its URL.
 */
export type MediaFailureOutcome =
  /** Load this freshly signed URL instead (and carry on where playback was). */
  | { kind: "retry"; url: string }
  /** A fresh URL failed too: this browser cannot play the file. */
  | { kind: "unplayable" }
  /** No fresh URL could be had (offline, signed out, the video deleted). */
  | { kind: "unavailable" };

export type MediaUrlRefresher = {
  /** The current URL loaded (its metadata arrived): a later failure may be its expiry. */
  loaded: () => void;
  /** The current URL failed to load; `fetchFreshUrl` asks the server for a newly signed one. */
  failed: (fetchFreshUrl: () => Promise<string | null>) => Promise<MediaFailureOutcome>;
};

export function createMediaUrlRefresher(): MediaUrlRefresher {
  // The page's URL counts as loaded: it may have expired before the player first used it.
  let mayRefresh = true;
  return {
    loaded: () => {
      mayRefresh = true;
    },
    failed: async (fetchFreshUrl) => {
      if (!mayRefresh) return { kind: "unplayable" };
      mayRefresh = false;
      const url = await fetchFreshUrl().catch(() => null);
      return url ? { kind: "retry", url } : { kind: "unavailable" };
    },
  };
}
