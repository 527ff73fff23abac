import { describe, expect, it } from "vitest";
import { createId } from "@/lib/ids";
import { testTable } from "../../../dev/test/runtime";
import {
  downsampleInterestCurve,
  findVideoChapters,
  MAX_INTEREST_CURVE_POINTS,
  putVideoChapters,
} from "./chapters-repo";

const table = testTable();

const chapters = [
  { startSeconds: 0, endSeconds: 42, title: "Intro" },
  { startSeconds: 42, endSeconds: 90, title: "The loud part" },
];

describe("chapters repository", () => {
  it("stores and replaces a video's chapters item, for its owner only", async () => {
    const creatorId = createId("creator");
    const videoId = createId("video");
    expect(await findVideoChapters({ table, creatorId, videoId })).toBeUndefined();

    const first = await putVideoChapters({
      table,
      creatorId,
      videoId,
      chapters,
      interestCurve: { secondsPerValue: 1, values: [0, 0.5, 1] },
      now: new Date("2030-01-01T00:00:00Z"),
    });
    // A redelivered analysis writes the same item again: still one item, creation time kept.
    await putVideoChapters({
      table,
      creatorId,
      videoId,
      chapters: chapters.slice(0, 1),
      interestCurve: { secondsPerValue: 1, values: [0.2] },
      now: new Date("2030-01-02T00:00:00Z"),
    });
    const stored = await findVideoChapters({ table, creatorId, videoId, consistent: true });
    expect(stored).toMatchObject({
      videoId,
      chapters: chapters.slice(0, 1),
      interestCurve: { values: [0.2] },
      createdAt: first.createdAt,
      updatedAt: "2030-01-02T00:00:00.000Z",
    });

    expect(await findVideoChapters({ table, creatorId: createId("creator"), videoId })).toBeUndefined();
  });

  it("refuses a curve longer than an item should hold", async () => {
    await expect(
      putVideoChapters({
        table,
        creatorId: createId("creator"),
        videoId: createId("video"),
        chapters,
        interestCurve: { secondsPerValue: 1, values: new Array(MAX_INTEREST_CURVE_POINTS + 1).fill(0.1) },
      }),
    ).rejects.toThrow(/downsample/);
  });

  it("downsamples a 4-hour curve to the stored size, keeping each span's peak", () => {
    const perSecond = Array.from({ length: 4 * 3600 }, (_, second) => (second === 7_201 ? 0.97 : 0.1));
    const curve = downsampleInterestCurve(perSecond);
    expect(curve.values.length).toBeLessThanOrEqual(MAX_INTEREST_CURVE_POINTS);
    expect(curve.secondsPerValue).toBe(20);
    expect(curve.values[Math.floor(7_201 / 20)]).toBe(0.97);
    expect(Math.max(...curve.values.filter((_, index) => index !== 360))).toBe(0.1);
    expect(downsampleInterestCurve([0.1234, 1.7, Number.NaN])).toEqual({
      secondsPerValue: 1,
      values: [0.123, 1, 0],
    });
  });
});
