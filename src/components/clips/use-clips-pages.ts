"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ClipSort } from "@/server/clips/list-clips";
import type { ClipView } from "@/server/clips/to-clip-view";
import { ClipApiError, fetchClipsPage } from "./clip-api";
import { clipsListKey, savedClipsPagesOf, withSavedClipsPages } from "./clips-history-state";
import { loadMoreAnnouncement } from "./load-more-announcement";

/** Scrolling saves the place this long after it stops: browsers limit how often history may be written. */
const SAVE_SCROLL_AFTER_MS = 150;

/**
 * The clips of a /clips listing, a page at a time: the server renders the first, "Load more"
 * fetches the next. The history entry remembers how many pages were loaded and how far down the
 * page was (clips-history-state.ts), so coming back to it shows them again at the same place.
 */
export function useClipsPages({
  sort,
  minScore,
  initialClips,
  initialCursor,
}: {
  sort: ClipSort;
  minScore: number | undefined;
  initialClips: ClipView[];
  initialCursor: string | null;
}) {
  const [clips, setClips] = useState(initialClips);
  const [cursor, setCursor] = useState(initialCursor);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [scrollTarget, setScrollTarget] = useState<{ yPixels: number } | null>(null);
  const pages = useRef(1);
  // Where this listing's history entry is: set once its save has been read back. Nothing is
  // saved before, as the scrolling a shorter page causes in the meantime would overwrite it.
  const entryUrl = useRef<string | null>(null);
  const list = clipsListKey(sort, minScore);

  const save = useCallback(() => {
    const here = window.location.pathname + window.location.search;
    // A late save (a scroll event after a link was followed) would land in the next page's entry.
    if (entryUrl.current !== here) return;
    const state = withSavedClipsPages(window.history.state, {
      list,
      pages: pages.current,
      scrollYPixels: Math.round(window.scrollY),
    });
    // Keeps the URL. Next's own fields are in `state`, so its patched replaceState passes it through.
    window.history.replaceState(state, "");
  }, [list]);

  // Back, Forward or reload onto an entry that had more pages: fetch them again, in turn from
  // the first page's cursor, then scroll to where the page was left.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per listing; the page remounts it (key) for another.
  useEffect(() => {
    const saved = savedClipsPagesOf(window.history.state, list);
    const here = window.location.pathname + window.location.search;
    if (!saved || saved.pages === 1 || !initialCursor) {
      entryUrl.current = here;
      if (saved) setScrollTarget({ yPixels: saved.scrollYPixels });
      return;
    }
    const controller = new AbortController();
    const restore = async () => {
      let all = initialClips;
      let next: string | null = initialCursor;
      let loaded = 1;
      setLoading(true);
      try {
        while (loaded < saved.pages && next) {
          const page = await fetchClipsPage({ sort, minScore, cursor: next, signal: controller.signal });
          all = appendNew(all, page.clips);
          next = page.nextCursor;
          loaded += 1;
        }
      } catch (caught) {
        if (controller.signal.aborted) return;
        setError(messageOf(caught));
      }
      if (controller.signal.aborted) return;
      pages.current = loaded;
      entryUrl.current = here;
      setClips(all);
      setCursor(next);
      setLoading(false);
      setScrollTarget({ yPixels: saved.scrollYPixels });
    };
    void restore();
    return () => controller.abort();
  }, [list]);

  // After the render that shows the restored pages, so the page is long enough to get there.
  useEffect(() => {
    if (scrollTarget) window.scrollTo(0, scrollTarget.yPixels);
  }, [scrollTarget]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(save, SAVE_SCROLL_AFTER_MS);
    };
    // A click may leave the page (a video's link) before the scroll save is due.
    const onClick = () => {
      clearTimeout(timer);
      save();
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    document.addEventListener("click", onClick, { capture: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener("scroll", onScroll);
      document.removeEventListener("click", onClick, { capture: true });
    };
  }, [save]);

  /** The next page; resolves to the clips it added (null when it failed). */
  const loadMore = async (): Promise<ClipView[] | null> => {
    if (!cursor || loading) return null;
    setLoading(true);
    setError(null);
    try {
      const page = await fetchClipsPage({ sort, minScore, cursor });
      const all = appendNew(clips, page.clips);
      const added = all.slice(clips.length);
      pages.current += 1;
      setClips(all);
      setCursor(page.nextCursor);
      setAnnouncement(
        loadMoreAnnouncement({
          addedCount: added.length,
          shownCount: all.length,
          moreToLoad: page.nextCursor !== null,
        }),
      );
      save();
      return added;
    } catch (caught) {
      setError(messageOf(caught));
      return null;
    } finally {
      setLoading(false);
    }
  };

  return { clips, cursor, loading, error, setError, loadMore, announcement };
}

/** A clip already shown is not shown twice (a clip written between two pages can move). */
function appendNew(clips: ClipView[], more: ClipView[]): ClipView[] {
  const seen = new Set(clips.map((clip) => clip.clipId));
  return [...clips, ...more.filter((clip) => !seen.has(clip.clipId))];
}

const messageOf = (caught: unknown) =>
  caught instanceof ClipApiError
    ? caught.message
    : "We could not reach Truss. Check your connection and try again.";
