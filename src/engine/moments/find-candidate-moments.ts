import { movingAverage, quantile, roundTo } from "@/engine/curve-math";
import type { TimeRange } from "@/engine/types";
import { type ClipBoundaries, nearestBoundary } from "./boundaries";

export type CandidateMoment = TimeRange & { peakSeconds: number };

type ClipLimits = { durationSeconds: number; minSeconds: number; maxSeconds: number };

/** Peaks are found on the interest curve averaged over this many seconds. */
const PEAK_SMOOTHING_SECONDS = 5;
/** A region grows while the smoothed curve stays above this fraction of the way from the
 * video's baseline to the peak: half-height, so a step-shaped event ends where its edge is. */
const REGION_HEIGHT_FRACTION = 0.5;
/** How far a boundary may move to land on a silence edge or a cut. */
const SNAP_OUTWARD_SECONDS = 4;
const SNAP_INWARD_SECONDS = 3;
/** How far past the minimum length we look for a clean end (or start) before padding. */
const EXTEND_SEARCH_SECONDS = 5;
/** Share of padding put before the peak: a little build-up plays better than a long tail. */
const LEAD_IN_SHARE = 0.6;

/**
 * Candidate clips around the peaks of the interest curve, strongest peak first: each grows
 * from its peak while the curve stays high, then its edges snap to silence edges or scene
 * cuts, then it is fitted into [minSeconds, maxSeconds]. Candidates may overlap; picking the
 * final non-overlapping set happens after scoring.
 */
export function findCandidateMoments({
  interest,
  boundaries,
  durationSeconds,
  minSeconds,
  maxSeconds,
  maxCandidates = 60,
}: ClipLimits & {
  interest: readonly number[];
  boundaries: ClipBoundaries;
  maxCandidates?: number;
}): CandidateMoment[] {
  const limits = { durationSeconds, minSeconds, maxSeconds };
  if (interest.length === 0 || durationSeconds <= 0) return [];
  if (durationSeconds <= minSeconds) {
    return [{ startSeconds: 0, endSeconds: roundTo(durationSeconds, 3), peakSeconds: argMax(interest) }];
  }
  const smoothed = movingAverage(interest, PEAK_SMOOTHING_SECONDS);
  // "Nothing happening" level: the lower quartile, since events may fill half a video.
  const baseline = quantile(smoothed, 0.25) ?? 0;
  const candidates: CandidateMoment[] = [];
  for (const peak of findPeaks(smoothed)) {
    if (candidates.length >= maxCandidates) break;
    if (candidates.some((candidate) => candidate.startSeconds <= peak && peak + 1 <= candidate.endSeconds))
      continue;
    const threshold = baseline + REGION_HEIGHT_FRACTION * ((smoothed[peak] ?? 0) - baseline);
    const region = growRegion(smoothed, peak, threshold, maxSeconds);
    const fitted = fitClip({ ...region, peakSeconds: peak, boundaries, interest, ...limits });
    if (candidates.some((candidate) => overlapShare(candidate, fitted) > 0.5)) continue;
    candidates.push(fitted);
  }
  return candidates;
}

/**
 * Candidates for the stretches no picked clip covers, so a video still yields its N clips when
 * its curve has few peaks (a steady video): in each gap long enough, the window around the
 * gap's most interesting second.
 */
export function findCandidatesInGaps({
  interest,
  boundaries,
  covered,
  durationSeconds,
  minSeconds,
  maxSeconds,
}: ClipLimits & {
  interest: readonly number[];
  boundaries: ClipBoundaries;
  covered: readonly TimeRange[];
}): CandidateMoment[] {
  const limits = { durationSeconds, minSeconds, maxSeconds };
  const smoothed = movingAverage(interest, PEAK_SMOOTHING_SECONDS);
  const sorted = [...covered].sort((a, b) => a.startSeconds - b.startSeconds);
  const gaps: TimeRange[] = [];
  let cursor = 0;
  for (const range of sorted) {
    if (range.startSeconds - cursor >= minSeconds)
      gaps.push({ startSeconds: cursor, endSeconds: range.startSeconds });
    cursor = Math.max(cursor, range.endSeconds);
  }
  if (durationSeconds - cursor >= minSeconds)
    gaps.push({ startSeconds: cursor, endSeconds: durationSeconds });

  const preferredSeconds = Math.min(maxSeconds, Math.max(minSeconds, 30));
  return gaps.map((gap) => {
    const from = Math.ceil(gap.startSeconds);
    const to = Math.max(from + 1, Math.floor(gap.endSeconds));
    const peak = from + argMax(smoothed.slice(from, to));
    const length = Math.min(preferredSeconds, gap.endSeconds - gap.startSeconds);
    let startSeconds = Math.max(gap.startSeconds, peak + 0.5 - LEAD_IN_SHARE * length);
    startSeconds = Math.min(startSeconds, gap.endSeconds - length);
    const fitted = fitClip({
      startSeconds,
      endSeconds: startSeconds + length,
      peakSeconds: peak,
      boundaries,
      interest,
      ...limits,
      durationSeconds: gap.endSeconds,
      lowestStart: gap.startSeconds,
    });
    return fitted;
  });
}

/** Indices of local maxima (a plateau counts once, at its first second), highest first. */
export function findPeaks(values: readonly number[]): number[] {
  const peaks: number[] = [];
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index] ?? 0;
    const left = index > 0 ? (values[index - 1] ?? 0) : Number.NEGATIVE_INFINITY;
    let right = index + 1;
    while (right < values.length && values[right] === value) right += 1;
    const rightValue = right < values.length ? (values[right] ?? 0) : Number.NEGATIVE_INFINITY;
    if (value > left && value > rightValue) peaks.push(index);
  }
  return peaks.sort((a, b) => (values[b] ?? 0) - (values[a] ?? 0) || a - b);
}

/** Grows [peak, peak+1) one second at a time toward the higher neighbour while above `threshold`. */
function growRegion(
  values: readonly number[],
  peak: number,
  threshold: number,
  maxSeconds: number,
): TimeRange {
  let left = peak;
  let right = peak;
  while (right - left + 1 < maxSeconds) {
    const leftValue = left > 0 ? (values[left - 1] ?? 0) : Number.NEGATIVE_INFINITY;
    const rightValue = right + 1 < values.length ? (values[right + 1] ?? 0) : Number.NEGATIVE_INFINITY;
    const leftOk = leftValue >= threshold;
    const rightOk = rightValue >= threshold;
    if (!leftOk && !rightOk) break;
    if (leftOk && (!rightOk || leftValue >= rightValue)) left -= 1;
    else right += 1;
  }
  return { startSeconds: left, endSeconds: right + 1 };
}

/**
 * Snaps a region's edges to nearby boundaries and fits it into [minSeconds, maxSeconds] within
 * the video (or within [lowestStart, durationSeconds] for a gap).
 */
export function fitClip({
  startSeconds,
  endSeconds,
  peakSeconds,
  boundaries,
  interest,
  durationSeconds,
  minSeconds,
  maxSeconds,
  lowestStart = 0,
}: ClipLimits &
  TimeRange & {
    peakSeconds: number;
    boundaries: ClipBoundaries;
    interest: readonly number[];
    lowestStart?: number;
  }): CandidateMoment {
  const floor = lowestStart;
  const ceiling = durationSeconds;
  const peakMiddle = peakSeconds + 0.5;
  let start =
    nearestBoundary(boundaries.starts, startSeconds, {
      before: SNAP_OUTWARD_SECONDS,
      after: SNAP_INWARD_SECONDS,
      lowest: floor,
      highest: peakMiddle,
      rank: (point) => edgeRank(point, startSeconds, "start", interest, boundaries.pauses),
    }) ?? startSeconds;
  let end =
    nearestBoundary(boundaries.ends, endSeconds, {
      before: SNAP_INWARD_SECONDS,
      after: SNAP_OUTWARD_SECONDS,
      lowest: Math.max(peakMiddle, start + 1),
      highest: ceiling,
      rank: (point) => edgeRank(point, endSeconds, "end", interest, boundaries.pauses),
    }) ?? endSeconds;

  if (end - start > maxSeconds) {
    // Keep the max-length window holding the most interest, then snap its edges inward.
    const windowStart = bestWindowStart(interest, start, end, maxSeconds);
    start =
      nearestBoundary(boundaries.starts, windowStart, { before: 0, after: SNAP_INWARD_SECONDS }) ??
      windowStart;
    const latestEnd = Math.min(start + maxSeconds, ceiling);
    end =
      nearestBoundary(boundaries.ends, latestEnd, {
        before: SNAP_INWARD_SECONDS + 1,
        after: 0,
        lowest: start + minSeconds,
      }) ?? latestEnd;
  }

  if (end - start < minSeconds) {
    const laterEnd = nearestAtOrAfter(boundaries.ends, start + minSeconds, EXTEND_SEARCH_SECONDS, ceiling);
    const earlierStart = nearestAtOrBefore(boundaries.starts, end - minSeconds, EXTEND_SEARCH_SECONDS, floor);
    const endCost = laterEnd === undefined ? Number.POSITIVE_INFINITY : laterEnd - (start + minSeconds);
    const startCost = earlierStart === undefined ? Number.POSITIVE_INFINITY : end - minSeconds - earlierStart;
    if (laterEnd !== undefined && endCost <= startCost && laterEnd - start <= maxSeconds) end = laterEnd;
    else if (earlierStart !== undefined && end - earlierStart <= maxSeconds) start = earlierStart;
    else {
      const deficit = minSeconds - (end - start);
      start -= LEAD_IN_SHARE * deficit;
      end += (1 - LEAD_IN_SHARE) * deficit;
    }
  }

  // Inside the video (or the gap), shifting rather than shortening where possible.
  if (start < floor) {
    end = Math.min(ceiling, end + (floor - start));
    start = floor;
  }
  if (end > ceiling) {
    start = Math.max(floor, start - (end - ceiling));
    end = ceiling;
  }
  return { startSeconds: roundTo(start, 3), endSeconds: roundTo(end, 3), peakSeconds };
}

/** Seconds each side of a boundary compared to see how sharp an edge it is. */
const EDGE_WINDOW_SECONDS = 3;
/** Rank weights: an edge of 0.1 in interest is worth ~0.7 s of distance; a pause is worth 1 s. */
const EDGE_DISTANCE_WEIGHT = 0.15;
const PAUSE_BONUS = 0.15;

/**
 * How good a place `point` is to start (or end) a clip: the sharper the rise (or fall) of
 * interest across it the better, a pause better than a cut mid-sentence, and nearer to where
 * the region's own edge was found.
 */
function edgeRank(
  point: number,
  target: number,
  side: "start" | "end",
  interest: readonly number[],
  pauses: ReadonlySet<number>,
): number {
  const at = Math.round(point);
  const average = (from: number, to: number) => {
    let sum = 0;
    let count = 0;
    for (let second = Math.max(0, from); second < Math.min(interest.length, to); second += 1) {
      sum += interest[second] ?? 0;
      count += 1;
    }
    return count === 0 ? 0 : sum / count;
  };
  const inside =
    side === "start" ? average(at, at + EDGE_WINDOW_SECONDS) : average(at - EDGE_WINDOW_SECONDS, at);
  const outside =
    side === "start" ? average(at - EDGE_WINDOW_SECONDS, at) : average(at, at + EDGE_WINDOW_SECONDS);
  return (
    inside - outside - EDGE_DISTANCE_WEIGHT * Math.abs(point - target) + (pauses.has(point) ? PAUSE_BONUS : 0)
  );
}

function bestWindowStart(values: readonly number[], from: number, to: number, length: number): number {
  let best = from;
  let bestSum = Number.NEGATIVE_INFINITY;
  for (let start = from; start + length <= to + 1e-9; start += 1) {
    let sum = 0;
    for (let second = Math.floor(start); second < Math.floor(start + length); second += 1)
      sum += values[second] ?? 0;
    if (sum > bestSum) {
      bestSum = sum;
      best = start;
    }
  }
  return best;
}

function nearestAtOrAfter(points: readonly number[], target: number, within: number, ceiling: number) {
  return points.find((point) => point >= target && point <= target + within && point <= ceiling);
}

function nearestAtOrBefore(points: readonly number[], target: number, within: number, floor: number) {
  let found: number | undefined;
  for (const point of points)
    if (point <= target && point >= target - within && point >= floor) found = point;
  return found;
}

function overlapShare(a: TimeRange, b: TimeRange): number {
  const overlap = Math.min(a.endSeconds, b.endSeconds) - Math.max(a.startSeconds, b.startSeconds);
  if (overlap <= 0) return 0;
  return overlap / Math.min(a.endSeconds - a.startSeconds, b.endSeconds - b.startSeconds);
}

function argMax(values: readonly number[]): number {
  let best = 0;
  for (let index = 1; index < values.length; index += 1)
    if ((values[index] ?? 0) > (values[best] ?? 0)) best = index;
  return best;
}
