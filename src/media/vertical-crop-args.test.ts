import { describe, expect, it } from "vitest";
import {
  buildBareVerticalCropArgs,
  buildVerticalVideoFilter,
  RENDER_X264_PRESET,
} from "./vertical-crop-args";

describe("buildVerticalVideoFilter", () => {
  it("crops a full-height 9:16 window at the given x expression and scales it to 1080×1920", () => {
    const filter = buildVerticalVideoFilter({
      layout: "crop",
      cropXExpression: "clip(iw*(0.4+0.1*clip(t-1,0,2))-ow/2,0,iw-ow)",
      inputLabel: "in",
      outputLabel: "out",
    });
    expect(filter).toBe(
      "[in]crop=w='min(iw,trunc(ih*9/16/2)*2)':h='ih':x='clip(iw*(0.4+0.1*clip(t-1,0,2))-ow/2,0,iw-ow)':y=0," +
        "scale=1080:1920:flags=bicubic,setsar=1[out]",
    );
  });

  it("fits the whole frame over a blurred copy of itself made at 1/8 size", () => {
    const filter = buildVerticalVideoFilter({ layout: "fit", inputLabel: "in", outputLabel: "out" });
    const chains = filter.split(";");
    expect(chains[0]).toBe(
      "[in]scale=1080:1920:force_original_aspect_ratio=decrease:flags=bicubic,setsar=1,split=2[out_bgsrc][out_fg]",
    );
    expect(chains[1]).toMatch(
      /^\[out_bgsrc\]scale=135:240:force_original_aspect_ratio=increase:flags=fast_bilinear,crop=135:240,boxblur=/,
    );
    expect(chains[1]).toMatch(/scale=1080:1920:flags=fast_bilinear,setsar=1\[out_bg\]$/);
    expect(chains[2]).toBe("[out_bg][out_fg]overlay=x='(W-w)/2':y='(H-h)/2'[out]");
    expect(chains).toHaveLength(3);
  });

  it("treats a vertical source like fit (scale, fill the margins), never cropping it", () => {
    const filter = buildVerticalVideoFilter({ layout: "native-vertical", inputLabel: "a", outputLabel: "b" });
    expect(filter).not.toContain("crop=w=");
    expect(filter).toContain("force_original_aspect_ratio=decrease");
  });
});

describe("buildBareVerticalCropArgs", () => {
  it("is a plain cut, centre crop, scale and encode with the render's preset", () => {
    const args = buildBareVerticalCropArgs({
      input: "/in.mp4",
      startSeconds: 10,
      durationSeconds: 30,
      outputPath: "/out.mp4",
    });
    expect(args.join(" ")).toContain("-ss 10.000 -t 30.000 -i file:/in.mp4");
    expect(args[args.indexOf("-vf") + 1]).toBe("crop='min(iw,trunc(ih*9/16/2)*2)':ih,scale=1080:1920");
    expect(args[args.indexOf("-preset") + 1]).toBe(RENDER_X264_PRESET);
    expect(args.at(-1)).toBe("/out.mp4");
  });
});
