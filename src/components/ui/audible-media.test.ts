import { describe, expect, it } from "vitest";
import { isAudible, type MediaPlayState, playersToPause } from "./audible-media";

const player = (state: Partial<MediaPlayState> = {}): MediaPlayState => ({
  paused: false,
  muted: false,
  volume: 1,
  ...state,
});

describe("isAudible", () => {
  it("hears an unmuted player with some volume, not a muted or silenced one", () => {
    expect(isAudible(player())).toBe(true);
    expect(isAudible(player({ volume: 0.1 }))).toBe(true);
    expect(isAudible(player({ muted: true }))).toBe(false);
    expect(isAudible(player({ volume: 0 }))).toBe(false);
  });
});

describe("playersToPause", () => {
  it("pauses the source player when a clip starts playing with sound", () => {
    const source = player();
    const clip = player();
    expect(playersToPause(clip, [source, clip])).toEqual([source]);
  });

  it("pauses every other audible player, but not the one that started", () => {
    const started = player();
    const first = player();
    const second = player({ volume: 0.4 });
    expect(playersToPause(started, [first, started, second])).toEqual([first, second]);
  });

  it("leaves paused, muted and silenced players alone", () => {
    const started = player();
    const paused = player({ paused: true });
    const mutedPreview = player({ muted: true });
    const turnedDown = player({ volume: 0 });
    expect(playersToPause(started, [started, paused, mutedPreview, turnedDown])).toEqual([]);
  });

  it("lets a muted preview start without pausing the player being listened to", () => {
    const source = player();
    const mutedPreview = player({ muted: true });
    expect(playersToPause(mutedPreview, [source, mutedPreview])).toEqual([]);
  });

  it("pauses nothing for a player that is not playing (turned up while paused)", () => {
    const source = player();
    const pausedClip = player({ paused: true });
    expect(playersToPause(pausedClip, [source, pausedClip])).toEqual([]);
  });
});
