import { describe, expect, it } from "vitest";
import {
  ACTIVE_VIDEO_SHARD_COUNT,
  activeVideoKey,
  activeVideoPk,
  activeVideoShardOf,
  clipIdOfSk,
  clipKey,
  uploadPartsKey,
  VIDEO_SK_PREFIX,
} from "@/db/keys";
import { clipIdFor, createId } from "@/lib/ids";

/** Pins the key strings the video repository adds to the scheme (src/db/keys.ts). */
describe("video keys", () => {
  it("puts each active video in one of four shard partitions, keyed by its id", () => {
    expect(activeVideoKey("vid_01JD5W3R8S7K0M2Q4T6V8X0Z1B")).toEqual({
      PK: `ACTIVE_VIDEO#${activeVideoShardOf("vid_01JD5W3R8S7K0M2Q4T6V8X0Z1B")}`,
      SK: "vid_01JD5W3R8S7K0M2Q4T6V8X0Z1B",
    });
    expect(activeVideoPk(3)).toBe("ACTIVE_VIDEO#3");
    expect(() => activeVideoPk(ACTIVE_VIDEO_SHARD_COUNT)).toThrow(/out of range/);
    expect(() => activeVideoKey("vid_a#b")).toThrow();
  });

  it("spreads videos evenly and always picks the same shard for a video", () => {
    const counts = new Array(ACTIVE_VIDEO_SHARD_COUNT).fill(0);
    for (let index = 0; index < 4000; index++) {
      const videoId = createId("video");
      const shard = activeVideoShardOf(videoId);
      expect(activeVideoShardOf(videoId)).toBe(shard);
      counts[shard]++;
    }
    for (const count of counts) expect(count).toBeGreaterThan(800);
  });

  it("keeps upload bookkeeping outside the video list's key range", () => {
    const key = uploadPartsKey("cr_1", "vid_1");
    expect(key).toEqual({ PK: "CREATOR#cr_1", SK: "UPLOAD_PARTS#vid_1" });
    expect(key.SK.startsWith(VIDEO_SK_PREFIX)).toBe(false);
  });

  it("reads a clip id back out of its sort key", () => {
    const clipId = clipIdFor(createId("video"), 7);
    expect(clipIdOfSk(clipKey("cr_1", clipId).SK)).toBe(clipId);
    expect(() => clipIdOfSk("ASSET#vid_1")).toThrow(/Not a clip/);
  });
});
