import { describe, expect, it } from "vitest";
import { buildThumbnailFilter, buildThumbnailOutputArgs } from "./thumbnail-args";

const options = { inputLabel: "clean", outputLabel: "thumb", atSeconds: 2.25, outputPath: "/o/t.jpg" };

describe("thumbnail arguments", () => {
  it("keeps half a second from the chosen time, so the branch ends right after its frame", () => {
    expect(buildThumbnailFilter(options)).toBe(
      "[clean]trim=start=2.250:end=2.750,setpts=PTS-STARTPTS[thumb]",
    );
    expect(buildThumbnailFilter({ ...options, atSeconds: -1 })).toContain("trim=start=0.000:end=0.500");
  });

  it("writes a single JPEG frame", () => {
    expect(buildThumbnailOutputArgs(options)).toEqual([
      "-map",
      "[thumb]",
      "-frames:v",
      "1",
      "-q:v",
      "3",
      "-f",
      "image2",
      "-update",
      "1",
      "/o/t.jpg",
    ]);
  });
});
