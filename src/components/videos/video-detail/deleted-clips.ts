/**
 * Clips deleted on a video's page leave it at once, before the server's render catches up. A
 * clip id is its video's id and an ordinal, which a later request for other clips can give to
 * a new clip: a deleted clip is known by its id and when it was created, so a newcomer under
 * the same id shows.
 */
type ClipIdentity = { clipId: string; createdAt: string };

export const deletedClipKey = (clip: ClipIdentity): string => `${clip.clipId}@${clip.createdAt}`;

export function withoutDeletedClips<Clip extends ClipIdentity>(
  clips: readonly Clip[],
  deleted: ReadonlySet<string>,
): Clip[] {
  return deleted.size === 0 ? [...clips] : clips.filter((clip) => !deleted.has(deletedClipKey(clip)));
}
