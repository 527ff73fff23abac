/** Round steps between ticks, seconds: the first that makes at most six of them is used. */
const TICK_STEPS_SECONDS = [5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600];
/**
 * The end is labelled right-aligned, so a round tick closer to it than this share of a step
 * would run into its label (0:40 beside 0:45 on a phone): that tick is left out.
 */
const END_CLEARANCE_STEPS = 0.75;

/** About five round-numbered ticks across the video, always including both ends. */
export function tickSeconds(durationSeconds: number): number[] {
  const step =
    TICK_STEPS_SECONDS.find((candidate) => durationSeconds / candidate <= 6) ?? TICK_STEPS_SECONDS.at(-1)!;
  const end = Math.floor(durationSeconds);
  const ticks = [0];
  for (let seconds = step; seconds <= durationSeconds - step * END_CLEARANCE_STEPS; seconds += step) {
    ticks.push(seconds);
  }
  if (end > 0) ticks.push(end);
  return ticks;
}

/**
 * A clip's numbered marker above the timeline: its place among the video's clips (1 = best) and
 * where its middle falls (0..1).
 */
export type TimelineMarker = { place: number; centreShare: number };

/**
 * The row (0 at the top) for each marker, so that close clips do not cover each other: best
 * place first, each takes the first row where it clears every marker already there by
 * `minGapShare` of the width. Clips apart leave one row; a cluster of them adds rows beneath.
 */
export function markerRows(markers: readonly TimelineMarker[], minGapShare: number): number[] {
  const rows: number[][] = [];
  const rowOf = new Array<number>(markers.length).fill(0);
  const bestFirst = markers.map((_, index) => index).sort((a, b) => markers[a]!.place - markers[b]!.place);
  for (const index of bestFirst) {
    const centre = markers[index]!.centreShare;
    const clears = (centres: number[]) => centres.every((other) => Math.abs(other - centre) >= minGapShare);
    let row = rows.findIndex(clears);
    if (row === -1) row = rows.push([]) - 1;
    rows[row]!.push(centre);
    rowOf[index] = row;
  }
  return rowOf;
}
