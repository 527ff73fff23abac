import type { TimeRange } from "@/engine/types";

/**
 * The best-scoring candidates that do not overlap, at most `topN`, best first. Ties go to the
 * earlier clip so the result is stable across runs.
 */
export function pickMoments<T extends TimeRange & { score: number }>(
  candidates: readonly T[],
  topN: number,
): T[] {
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.startSeconds - b.startSeconds);
  const picked: T[] = [];
  for (const candidate of ranked) {
    if (picked.length >= topN) break;
    const overlaps = picked.some(
      (other) =>
        candidate.startSeconds < other.endSeconds - 1e-6 && other.startSeconds < candidate.endSeconds - 1e-6,
    );
    if (!overlaps) picked.push(candidate);
  }
  return picked;
}
