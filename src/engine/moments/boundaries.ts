import type { SignalCurve } from "@/engine/types";

/**
 * Where a clip may start or end: where sound resumes or stops (silence edges) and where the
 * picture cuts. Starting on a silence's end and ending on a silence's start keeps words whole.
 */
export type ClipBoundaries = {
  starts: number[];
  ends: number[];
  /** Silence edges: a pause is a cleaner place to cut than a picture change mid-sentence. */
  pauses: ReadonlySet<number>;
};

export function collectBoundaries(signals: SignalCurve): ClipBoundaries {
  const starts = new Set<number>([0]);
  const ends = new Set<number>([signals.durationSeconds]);
  const pauses = new Set<number>();
  for (const silence of signals.silences) {
    // Whole silences are cheap to skip: start as the sound comes back, end as it stops.
    starts.add(silence.endSeconds);
    ends.add(silence.startSeconds);
    pauses.add(silence.endSeconds);
    pauses.add(silence.startSeconds);
  }
  for (const cut of signals.sceneCutsSeconds) {
    starts.add(cut);
    ends.add(cut);
  }
  const sorted = (values: Set<number>) =>
    [...values].filter((value) => value >= 0 && value <= signals.durationSeconds).sort((a, b) => a - b);
  return { starts: sorted(starts), ends: sorted(ends), pauses };
}

/**
 * The boundary in `points` within [target − before, target + after] (and [lowest, highest])
 * with the best `rank` (higher is better; by default, the nearest to `target`).
 */
export function nearestBoundary(
  points: readonly number[],
  target: number,
  {
    before,
    after,
    lowest = Number.NEGATIVE_INFINITY,
    highest = Number.POSITIVE_INFINITY,
    rank = (point: number) => -Math.abs(point - target),
  }: {
    before: number;
    after: number;
    lowest?: number;
    highest?: number;
    rank?: (point: number) => number;
  },
): number | undefined {
  let best: number | undefined;
  let bestRank = Number.NEGATIVE_INFINITY;
  for (const point of points) {
    if (point < target - before || point > target + after || point < lowest || point > highest) continue;
    const pointRank = rank(point);
    if (pointRank > bestRank) {
      best = point;
      bestRank = pointRank;
    }
  }
  return best;
}
