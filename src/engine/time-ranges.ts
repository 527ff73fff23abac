import type { TimeRange } from "@/engine/types";

/** Seconds two ranges share (0 when they do not touch). */
export function overlapSeconds(a: TimeRange, b: TimeRange): number {
  return Math.max(0, Math.min(a.endSeconds, b.endSeconds) - Math.max(a.startSeconds, b.startSeconds));
}

/**
 * Clips may share a boundary frame or two (a snapped cut, a rounded timestamp); only a real
 * overlap counts as one.
 */
export const OVERLAP_TOLERANCE_SECONDS = 0.5;

export function rangesOverlap(a: TimeRange, b: TimeRange): boolean {
  return overlapSeconds(a, b) > OVERLAP_TOLERANCE_SECONDS;
}

export function lengthSeconds(range: TimeRange): number {
  return range.endSeconds - range.startSeconds;
}

/** Times are kept to the centisecond: finer is noise, and it keeps stored JSON readable. */
export function roundSeconds(seconds: number): number {
  return Math.round(seconds * 100) / 100;
}
