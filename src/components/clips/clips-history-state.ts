/**
 * What a /clips history entry remembers so that Back (after opening a clip's video) brings the
 * listing back as it was left: how many pages were loaded and how far down it was scrolled.
 * Only the count of pages is kept, not their cursors or clips: on the way back the pages are
 * fetched again from the first page's cursor, so the clips and their short-lived picture URLs
 * are fresh, and clips added since shift the pages instead of falling between them.
 *
 * It lives in the entry's `history.state` (beside Next's own fields), not in sessionStorage
 * keyed by URL: a new visit to the same URL (the Clips link) starts at the top with one page,
 * while Back, Forward and reload find what that entry had.
 */
export type SavedClipsPages = {
  /** The listing it was taken from (order and minimum score), so it is never applied to another. */
  list: string;
  pages: number;
  scrollYPixels: number;
};

const STATE_KEY = "trussClipsPages";

/** Going back restores at most this many pages (480 clips), one request each, in turn. */
export const MAX_RESTORED_PAGES = 20;

export const clipsListKey = (sort: string, minScore: number | undefined) => `${sort}:${minScore ?? "any"}`;

/** Pure: the saved pages of `list` in a history entry's state, if it holds any. */
export function savedClipsPagesOf(historyState: unknown, list: string): Omit<SavedClipsPages, "list"> | null {
  if (typeof historyState !== "object" || historyState === null) return null;
  const saved = (historyState as Record<string, unknown>)[STATE_KEY];
  if (typeof saved !== "object" || saved === null) return null;
  const { list: savedList, pages, scrollYPixels } = saved as Record<string, unknown>;
  if (savedList !== list || !Number.isInteger(pages) || typeof scrollYPixels !== "number") return null;
  return {
    pages: Math.min(Math.max(pages as number, 1), MAX_RESTORED_PAGES),
    scrollYPixels: Number.isFinite(scrollYPixels) ? Math.max(scrollYPixels, 0) : 0,
  };
}

/** Pure: the entry's state with `saved` in it; every other field (Next's router state) is kept. */
export function withSavedClipsPages(historyState: unknown, saved: SavedClipsPages): Record<string, unknown> {
  const base = typeof historyState === "object" && historyState !== null ? historyState : {};
  return { ...base, [STATE_KEY]: saved };
}
