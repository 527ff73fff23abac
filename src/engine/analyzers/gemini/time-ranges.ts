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

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** `m:ss` or `h:mm:ss`, for messages and prompts. */
export function formatTimestamp(totalSeconds: number): string {
  const whole = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = whole % 60;
  const pad = (n: number) => n.toString().padStart(2, "0");
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}
