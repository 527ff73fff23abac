import { describe, expect, it } from "vitest";
import {
  clipRangesOf,
  forgetOtherClipsAsked,
  type KeyValueStore,
  otherClipsOutcome,
  recallOtherClipsAsked,
  rememberOtherClipsAsked,
  sameClips,
} from "./other-clips-outcome";

const VIDEO_ID = "video_01JZ8Q000000000000000TEST";
const READY_AT = "2026-01-01T10:00:00.000Z";
const range = (clipId: string, startSeconds: number, endSeconds: number) => ({
  clipId,
  startSeconds,
  endSeconds,
});
const before = [range(`${VIDEO_ID}#0`, 10, 30), range(`${VIDEO_ID}#1`, 40, 55)];
const asked = { readyAt: READY_AT, clips: before };

function memoryStore(): KeyValueStore {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

describe("sameClips", () => {
  it("is true for the same ids with the same ranges, in any order", () => {
    expect(sameClips(before, [...before].reverse())).toBe(true);
  });

  it("is false when a clip moved, another took an id, or one came or went", () => {
    expect(sameClips(before, [before[0]!, range(`${VIDEO_ID}#1`, 41, 55)])).toBe(false);
    expect(sameClips(before, [before[0]!, range(`${VIDEO_ID}#2`, 40, 55)])).toBe(false);
    expect(sameClips(before, [before[0]!])).toBe(false);
    expect(sameClips(before, [...before, range(`${VIDEO_ID}#2`, 70, 90)])).toBe(false);
  });
});

describe("otherClipsOutcome", () => {
  it("says the clips came back the same once the video is ready again", () => {
    const ready = { status: "READY" as const, updatedAt: "2026-01-01T10:01:00.000Z" };
    expect(otherClipsOutcome(asked, ready, [...before].reverse())).toBe("same clips");
    expect(otherClipsOutcome(asked, ready, [before[0]!, range(`${VIDEO_ID}#1`, 60, 75)])).toBe("other clips");
  });

  it("waits while the video is processing, and while the page still shows it ready as when asked", () => {
    for (const status of ["QUEUED", "ANALYZING", "RENDERING"] as const) {
      expect(otherClipsOutcome(asked, { status, updatedAt: "2026-01-01T10:00:30.000Z" }, before)).toBe(
        "waiting",
      );
    }
    expect(otherClipsOutcome(asked, { status: "READY", updatedAt: READY_AT }, before)).toBe("waiting");
  });

  it("ends with a failed video, whatever its clips", () => {
    expect(
      otherClipsOutcome(asked, { status: "FAILED", updatedAt: "2026-01-01T10:01:00.000Z" }, before),
    ).toBe("failed");
  });
});

describe("the request kept for the tab", () => {
  it("is recalled per video until forgotten", () => {
    const store = memoryStore();
    rememberOtherClipsAsked(store, VIDEO_ID, asked);
    expect(recallOtherClipsAsked(store, VIDEO_ID)).toEqual(asked);
    expect(recallOtherClipsAsked(store, "video_other")).toBeNull();
    forgetOtherClipsAsked(store, VIDEO_ID);
    expect(recallOtherClipsAsked(store, VIDEO_ID)).toBeNull();
  });

  it("is null when what is stored is not such a request, and storage that throws is no error", () => {
    const store = memoryStore();
    store.setItem(`truss.other-clips.${VIDEO_ID}`, "{not json");
    expect(recallOtherClipsAsked(store, VIDEO_ID)).toBeNull();
    store.setItem(`truss.other-clips.${VIDEO_ID}`, JSON.stringify({ readyAt: READY_AT, clips: [{}] }));
    expect(recallOtherClipsAsked(store, VIDEO_ID)).toBeNull();
    const failing: KeyValueStore = {
      getItem: () => {
        throw new Error("SecurityError");
      },
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
      removeItem: () => {
        throw new Error("SecurityError");
      },
    };
    expect(() => rememberOtherClipsAsked(failing, VIDEO_ID, asked)).not.toThrow();
    expect(recallOtherClipsAsked(failing, VIDEO_ID)).toBeNull();
    expect(() => forgetOtherClipsAsked(failing, VIDEO_ID)).not.toThrow();
  });
});

describe("clipRangesOf", () => {
  it("keeps only the id and the range", () => {
    const shown = { ...before[0]!, title: "Wait for it", score: 81 };
    expect(clipRangesOf([shown])).toEqual([before[0]]);
  });
});
