import { bestFirst } from "./best-first";

/**
 * Pure: clips in "newest first" key order come newest video first, but within a video in
 * reverse rank (clip ids end in the rank). Regroups them: videos in the order they first
 * appear, each video's clips best first. Safe to apply to the clips of several pages at once.
 */
export function groupClipsByVideo<T extends { videoId: string; rank: number; score: number }>(
  clips: readonly T[],
): T[] {
  const videoOrder = new Map<string, number>();
  for (const clip of clips) if (!videoOrder.has(clip.videoId)) videoOrder.set(clip.videoId, videoOrder.size);
  return [...clips].sort(
    (a, b) => (videoOrder.get(a.videoId) ?? 0) - (videoOrder.get(b.videoId) ?? 0) || bestFirst(a, b),
  );
}
