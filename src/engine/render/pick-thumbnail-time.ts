/** Frames this close to a cut are often mid-transition or motion-blurred. */
const CUT_MARGIN_SECONDS = 0.4;
const EDGE_MARGIN_SECONDS = 0.5;

/**
 * The moment for a clip's thumbnail: where the subject shows best (the largest, surest face, or
 * the strongest concentrated motion), away from cuts and the clip's very edges. Without a
 * subject, a frame from the hook's first second.
 */
export function pickThumbnailTime({
  highlights,
  durationSeconds,
  cutsSeconds,
}: {
  highlights: { timeSeconds: number; weight: number }[];
  durationSeconds: number;
  cutsSeconds: number[];
}): number {
  const earliest = Math.min(EDGE_MARGIN_SECONDS, durationSeconds / 4);
  const latest = durationSeconds - Math.min(EDGE_MARGIN_SECONDS, durationSeconds / 4);
  let best: { timeSeconds: number; weight: number } | undefined;
  for (const highlight of highlights) {
    if (highlight.timeSeconds < earliest || highlight.timeSeconds > latest) continue;
    if (cutsSeconds.some((cut) => Math.abs(cut - highlight.timeSeconds) < CUT_MARGIN_SECONDS)) continue;
    if (!best || highlight.weight > best.weight) best = highlight;
  }
  return best?.timeSeconds ?? Math.min(1, durationSeconds / 2);
}
