/**
 * Pure: a video's clips best first, by score, then by rank. They match until the creator trims
 * a clip (it is scored again) or keeps edited clips through a request for other clips.
 */
export const bestFirst = (a: { score: number; rank: number }, b: { score: number; rank: number }): number =>
  b.score - a.score || a.rank - b.rank;
