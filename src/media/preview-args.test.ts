import { describe, expect, it } from "vitest";
import { buildPreviewFilter, buildPreviewOutputArgs, PREVIEW } from "./preview-args";

const base = { inputLabel: "v", outputLabel: "p", outputPath: "/o/p" } as const;

describe("preview arguments", () => {
  it("trims three seconds first, then lowers the rate and size", () => {
    expect(buildPreviewFilter({ ...base, format: "webp" })).toBe(
      "[v]trim=start=0.000:end=3.000,setpts=PTS-STARTPTS,fps=10,scale=270:480:flags=bilinear,setsar=1[p]",
    );
    expect(buildPreviewFilter({ ...base, format: "webp", startSeconds: 4 })).toContain(
      "trim=start=4.000:end=7.000",
    );
    expect(PREVIEW).toMatchObject({ width: 270, height: 480, durationSeconds: 3 });
  });

  it("encodes a looping animated WebP, or a muted faststart MP4 without libwebp", () => {
    const webp = buildPreviewOutputArgs({ ...base, format: "webp" });
    expect(webp.slice(0, 5)).toEqual(["-map", "[p]", "-an", "-c:v", "libwebp_anim"]);
    expect(webp[webp.indexOf("-loop") + 1]).toBe("0");
    expect(webp[webp.indexOf("-compression_level") + 1]).toBe("2");
    expect(webp.slice(-3)).toEqual(["-f", "webp", "/o/p"]);

    const mp4 = buildPreviewOutputArgs({ ...base, format: "mp4" });
    expect(mp4).toContain("-an");
    expect(mp4[mp4.indexOf("-c:v") + 1]).toBe("libx264");
    expect(mp4[mp4.indexOf("-movflags") + 1]).toBe("+faststart");
    expect(mp4.slice(-3)).toEqual(["-f", "mp4", "/o/p"]);
  });
});
