import { describe, expect, it } from "vitest";
import { deletedClipKey, withoutDeletedClips } from "./deleted-clips";

const clip = (clipId: string, createdAt: string) => ({ clipId, createdAt });

describe("withoutDeletedClips", () => {
  it("hides a clip deleted on the page while the server's list still has it", () => {
    const first = clip("video_1#0", "2026-01-01T10:00:00.000Z");
    const second = clip("video_1#1", "2026-01-01T10:00:00.000Z");
    expect(withoutDeletedClips([first, second], new Set([deletedClipKey(first)]))).toEqual([second]);
  });

  it("shows a new clip that was given a deleted clip's id (its ordinal) by a request for other clips", () => {
    const deleted = clip("video_1#0", "2026-01-01T10:00:00.000Z");
    const newcomer = clip("video_1#0", "2026-01-01T10:05:00.000Z");
    expect(withoutDeletedClips([newcomer], new Set([deletedClipKey(deleted)]))).toEqual([newcomer]);
  });

  it("keeps every clip when none was deleted", () => {
    const clips = [clip("video_1#0", "2026-01-01T10:00:00.000Z")];
    expect(withoutDeletedClips(clips, new Set())).toEqual(clips);
  });
});
