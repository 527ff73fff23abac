import type { MomentForClip } from "@/db/repos/clip-repo";

/**
 * Moments for `upsertClipsForVideo`, one per score, 20 s each and 30 s apart from 5 s on, every
 * sub-score the clip's score, titled "Moment 1", "Moment 2"…: clips for tests of what the pages
 * and routes do with them, not of how they were found.
 */
export function standInMoments(scores: readonly number[]): MomentForClip[] {
  return scores.map((score, ordinal) => ({
    ordinal,
    startSeconds: 30 * ordinal + 5,
    endSeconds: 30 * ordinal + 25,
    score,
    subscores: { hook: score, audioEnergy: score, visualDynamics: score, speech: score, chat: null },
    reasons: [],
    title: `Moment ${ordinal + 1}`,
    hookLine: null,
    platformCopy: null,
  }));
}
