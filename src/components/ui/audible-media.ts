/** What deciding which players to pause needs to know of a media element. */
export type MediaPlayState = {
  paused: boolean;
  muted: boolean;
  volume: number;
};

/** Heard when playing: muted previews, and players turned down to nothing, are not. */
export const isAudible = (media: MediaPlayState): boolean => !media.muted && media.volume > 0;

/**
 * The players to pause because `started` began to play (or was turned up while playing), so
 * that one soundtrack is heard at a time. A silent player, such as a muted looping preview,
 * pauses nothing and is paused by nothing: it neither talks over a player nor is heard under one.
 */
export function playersToPause<Media extends MediaPlayState>(
  started: Media,
  players: Iterable<Media>,
): Media[] {
  if (started.paused || !isAudible(started)) return [];
  return [...players].filter((player) => player !== started && !player.paused && isAudible(player));
}
