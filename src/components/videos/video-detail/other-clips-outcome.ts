import type { ClipView } from "@/server/clips/to-clip-view";
import type { VideoView } from "../video-api";

/**
 * Whether "Other clips…" came back with other clips. The request is the page's, and the page
 * follows the video through QUEUED, ANALYZING and RENDERING back to READY by refreshing, or by a
 * reload: what it asked is kept in the tab's sessionStorage (per video) until the video is ready
 * again, and the clips then are compared with the clips shown when it asked.
 */

/** A clip as the comparison knows it: which clip, and which part of the video it is. */
export type ClipRange = Pick<ClipView, "clipId" | "startSeconds" | "endSeconds">;

export type OtherClipsAsked = {
  /** The ready video's `updatedAt` when asked: the page still showing it is not the answer yet. */
  readyAt: string;
  clips: ClipRange[];
};

export type OtherClipsOutcome = "waiting" | "same clips" | "other clips" | "failed";

export type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const storageKey = (videoId: string) => `truss.other-clips.${videoId}`;

/** Only what the comparison needs, for a client component's props and the stored request. */
export const clipRangesOf = (clips: readonly ClipRange[]): ClipRange[] =>
  clips.map(({ clipId, startSeconds, endSeconds }) => ({ clipId, startSeconds, endSeconds }));

/** The same clips, in any order: the same ids, each with the same range. */
export function sameClips(before: readonly ClipRange[], after: readonly ClipRange[]): boolean {
  if (before.length !== after.length) return false;
  const keyOf = (clip: ClipRange) => `${clip.clipId}@${clip.startSeconds}-${clip.endSeconds}`;
  const earlier = new Set(before.map(keyOf));
  return after.every((clip) => earlier.has(keyOf(clip)));
}

export function otherClipsOutcome(
  asked: OtherClipsAsked,
  video: Pick<VideoView, "status" | "updatedAt">,
  clips: readonly ClipRange[],
): OtherClipsOutcome {
  if (video.status === "FAILED") return "failed";
  // Compared with the time the ready video had when asked, not the clock: the page may still
  // show it until its refresh, and the worker's clock is not the web server's.
  if (video.status !== "READY" || video.updatedAt === asked.readyAt) return "waiting";
  return sameClips(asked.clips, clips) ? "same clips" : "other clips";
}

export function rememberOtherClipsAsked(store: KeyValueStore, videoId: string, asked: OtherClipsAsked): void {
  try {
    store.setItem(storageKey(videoId), JSON.stringify(asked));
  } catch {
    // Storage full or disabled: the clips come back all the same, only without the word.
  }
}

export function recallOtherClipsAsked(store: KeyValueStore, videoId: string): OtherClipsAsked | null {
  try {
    const parsed = JSON.parse(store.getItem(storageKey(videoId)) ?? "null") as unknown;
    return isOtherClipsAsked(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function forgetOtherClipsAsked(store: KeyValueStore, videoId: string): void {
  try {
    store.removeItem(storageKey(videoId));
  } catch {
    // Disabled storage held nothing.
  }
}

/** The tab's sessionStorage, or null where the browser gives none (disabled, or the server). */
export function sessionStore(): KeyValueStore | null {
  try {
    return typeof window === "undefined" ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

function isOtherClipsAsked(value: unknown): value is OtherClipsAsked {
  if (!value || typeof value !== "object") return false;
  const { readyAt, clips } = value as Partial<Record<keyof OtherClipsAsked, unknown>>;
  return (
    typeof readyAt === "string" &&
    Array.isArray(clips) &&
    clips.every(
      (clip: unknown) =>
        !!clip &&
        typeof clip === "object" &&
        typeof (clip as ClipRange).clipId === "string" &&
        typeof (clip as ClipRange).startSeconds === "number" &&
        typeof (clip as ClipRange).endSeconds === "number",
    )
  );
}
