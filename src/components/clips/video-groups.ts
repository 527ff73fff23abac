import { groupClipsByVideo } from "@/server/clips/group-clips-by-video";

export type VideoGroup<T> = {
  videoId: string;
  videoTitle: string;
  /** Best first. */
  clips: T[];
  /**
   * Every clip of the video is here, so a clip's place in the group (#1 = the video's best) is
   * final. False when the video's other clips may still be on the next page.
   */
  complete: boolean;
};

/**
 * Pure: the "newest" listing's clips loaded so far, one group per video (newest video first),
 * each video's clips best first.
 *
 * A page (24 clips) can end inside a video. The listing walks clip ids newest first, and ids end
 * in the clip's rank in its analysis (`clip_<video>_<ordinal>`), so a video's clips come from its
 * lowest-ranked to its best and the best (rank 1) is always its last: only the last group can be
 * cut, and it is whole once its rank-1 clip is here or nothing is left to load. (When the rank-1
 * clip was deleted the group reads as cut until the next page shows another video: cautious,
 * never wrong.)
 */
export function videoGroupsOf<T extends { videoId: string; videoTitle: string; rank: number; score: number }>(
  clips: readonly T[],
  moreToLoad: boolean,
): VideoGroup<T>[] {
  const groups: VideoGroup<T>[] = [];
  for (const clip of groupClipsByVideo(clips)) {
    const last = groups.at(-1);
    if (last?.videoId === clip.videoId) last.clips.push(clip);
    else groups.push({ videoId: clip.videoId, videoTitle: clip.videoTitle, clips: [clip], complete: true });
  }
  const last = groups.at(-1);
  if (last && moreToLoad) last.complete = last.clips.some((clip) => clip.rank === 1);
  return groups;
}
