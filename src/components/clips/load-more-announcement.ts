/**
 * Pure: what a screen reader hears after "Load more". It names the total too, so two loads of
 * the same size read differently (a live region repeats nothing for an unchanged text).
 */
export function loadMoreAnnouncement({
  addedCount,
  shownCount,
  moreToLoad,
}: {
  addedCount: number;
  shownCount: number;
  moreToLoad: boolean;
}): string {
  const added =
    addedCount === 0
      ? "No more clips loaded"
      : `${addedCount} more ${addedCount === 1 ? "clip" : "clips"} loaded`;
  return `${added}, ${shownCount} shown${moreToLoad ? "." : ": that is all of them."}`;
}
