import { describe, expect, it } from "vitest";
import { resolveMediaBinaries } from "./ffmpeg-binaries";
import { readMediaStdout } from "./run-ffmpeg";
import {
  buildBareVerticalCropArgs,
  buildVerticalVideoFilter,
  type FrameRegion,
  fitInside,
  RENDER_X264_PRESET,
} from "./vertical-crop-args";

describe("buildVerticalVideoFilter", () => {
  it("crops a full-height 9:16 window at the given x expression and scales it to 1080×1920", () => {
    const filter = buildVerticalVideoFilter({
      layout: "crop",
      cropXExpression: "clip(iw*(0.4+0.1*clip(t-1,0,2))-ow/2,0,iw-ow)",
      sourceHeight: 1080,
      inputLabel: "in",
      outputLabel: "out",
    });
    expect(filter).toBe(
      "[in]crop=w='min(iw,trunc(ih*9/16/2)*2)':h='ih':x='clip(iw*(0.4+0.1*clip(t-1,0,2))-ow/2,0,iw-ow)':y=0," +
        "scale=1080:1920:flags=bicubic,setsar=1[out]",
    );
  });

  it("tone-maps an HDR picture on the smaller side of the resize", () => {
    const toneMapFilter = "TONEMAP";
    const crop = (sourceHeight: number) =>
      buildVerticalVideoFilter({
        layout: "crop",
        cropXExpression: "0",
        sourceHeight,
        toneMapFilter,
        inputLabel: "in",
        outputLabel: "out",
      });
    // A 1080p crop is enlarged to 1920 rows: tone mapping first; a 4K crop shrinks: after.
    expect(crop(1080)).toContain("y=0,TONEMAP,scale=1080:1920:flags=bicubic,setsar=1[out]");
    expect(crop(2160)).toContain("y=0,scale=1080:1920:flags=bicubic,TONEMAP,setsar=1[out]");
    const fit = buildVerticalVideoFilter({
      layout: "fit",
      sourceWidth: 1920,
      sourceHeight: 1080,
      toneMapFilter,
      inputLabel: "in",
      outputLabel: "out",
    });
    // Once, on the shrunk foreground, which the blurred bands are made from.
    expect(fit.match(/TONEMAP/g)).toHaveLength(1);
    expect(fit).toContain("[in]scale=1080:608:flags=bilinear,TONEMAP,setsar=1,split=2");
  });

  it("stacks a 16:9 frame between two bands of a blurred close-up, made at 1/8 size", () => {
    const filter = buildVerticalVideoFilter({
      layout: "fit",
      sourceWidth: 1920,
      sourceHeight: 1080,
      inputLabel: "in",
      outputLabel: "out",
    });
    expect(filter.split(";")).toEqual([
      "[in]scale=1080:608:flags=bilinear,setsar=1,split=2[out_bgsrc][out_fg]",
      "[out_bgsrc]select='not(mod(n\\,3))+gt(scene\\,0.25)',crop=342:608,scale=136:240:flags=fast_bilinear," +
        "boxblur=luma_radius=6:luma_power=2,eq=brightness=-0.08,split=2[out_bg1][out_bg2]",
      "[out_bg1]crop=136:82:0:0,scale=1080:656:flags=fast_bilinear[out_band1]",
      "[out_bg2]crop=136:82:0:158,scale=1080:656:flags=fast_bilinear[out_band2]",
      "[out_band1][out_fg][out_band2]vstack=inputs=3,scale=1080:1920,setsar=1[out]",
    ]);
  });

  it("treats a vertical source like fit, never cropping it: bands beside a narrow one, none for 9:16", () => {
    const narrow = buildVerticalVideoFilter({
      layout: "native-vertical",
      sourceWidth: 400,
      sourceHeight: 1000,
      inputLabel: "a",
      outputLabel: "b",
    });
    expect(narrow).not.toContain("crop=w=");
    expect(narrow).toContain("[a]scale=768:1920:flags=bicubic");
    expect(narrow).toContain("hstack=inputs=3");
    const exact = buildVerticalVideoFilter({
      layout: "native-vertical",
      sourceWidth: 720,
      sourceHeight: 1280,
      inputLabel: "a",
      outputLabel: "b",
    });
    expect(exact).toBe("[a]scale=1080:1920:flags=bicubic,setsar=1[b]");
  });
});

describe("fitInside", () => {
  it("keeps even sizes and splits the rest into even bands", () => {
    expect(fitInside(640, 480)).toEqual({ width: 1080, height: 810, stack: "vstack", bandTotal: 1110 });
    expect(fitInside(1080, 1350)).toEqual({ width: 1080, height: 1350, stack: "vstack", bandTotal: 570 });
    expect(fitInside(400, 1000)).toEqual({ width: 768, height: 1920, stack: "hstack", bandTotal: 312 });
    expect(fitInside(0, 0).bandTotal).toBe(0);
  });

  it("produces exactly 1080×1920 frames in ffmpeg for every shape", async () => {
    for (const [width, height] of [
      [640, 480],
      [1920, 1080],
      [360, 450],
      [400, 1000],
      [720, 1280],
    ] as const) {
      const filter = buildVerticalVideoFilter({
        layout: height > width ? "native-vertical" : "fit",
        sourceWidth: width,
        sourceHeight: height,
        inputLabel: "0:v",
        outputLabel: "out",
      });
      const frames = await grayOutputFrames(`testsrc2=size=${width}x${height}:rate=5:duration=1.4`, filter);
      // Seven frames in, seven out: the background, redrawn every third frame, is held between.
      expect(frames.length).toBe(7 * 1080 * 1920);
    }
  });
});

describe("the facecam layout", () => {
  /** The layout's filter for an 854×480 source whose cam is `cam` (shown whole). */
  const facecamFilter = (cam: FrameRegion) =>
    buildVerticalVideoFilter({
      layout: "facecam",
      facecam: { shown: cam, box: cam },
      sourceWidth: 854,
      sourceHeight: 480,
      inputLabel: "0:v",
      outputLabel: "out",
    });

  it("moves the picture below off-centre to keep clear of the cam when a small shift does", () => {
    const pictureCrop = (box: { x: number; width: number }) =>
      /crop=406:ih:(\d+):0/.exec(
        facecamFilter({ x: box.x / 854, y: 0.7, width: box.width / 854, height: 0.25 }),
      )?.[1];
    // Centred, the picture (406 of 854 columns) spans 224–630: a cam from 600 overlaps it. The
    // picture ends 13 columns (1.5%) short of the cam.
    expect(pictureCrop({ x: 600, width: 250 })).toBe("182");
    expect(pictureCrop({ x: 100, width: 150 })).toBe("262");
    expect(pictureCrop({ x: 700, width: 150 })).toBe("224");
    // A cam in the middle would take too large a shift: the picture stays centred.
    expect(pictureCrop({ x: 330, width: 200 })).toBe("224");
  });

  it("puts the face cam region in the top 640 rows and the picture's middle below, 1080×1920", async () => {
    // A white inset at the bottom right (the cam), a grey middle, black elsewhere.
    const source =
      "color=c=black:s=854x480:r=5:d=0.4[bg];color=c=white:s=200x112:r=5:d=0.4[cam];color=c=0x808080:s=200x480:r=5:d=0.4[mid];" +
      "[bg][mid]overlay=x=327:y=0[withmid];[withmid][cam]overlay=x=654:y=368";
    // The cam, exactly (200×112 at 654,368 of 854×480), as fractions.
    const filter = facecamFilter({ x: 654 / 854, y: 368 / 480, width: 200 / 854, height: 112 / 480 });
    const frames = await grayOutputFrames(source, filter);
    expect(frames.length).toBe(2 * 1080 * 1920);
    const meanOfRows = (fromRow: number, toRow: number, fromColumn = 0, toColumn = 1080) => {
      let sum = 0;
      for (let row = fromRow; row < toRow; row += 1) {
        for (let column = fromColumn; column < toColumn; column += 1) sum += frames[row * 1080 + column]!;
      }
      return sum / ((toRow - fromRow) * (toColumn - fromColumn));
    };
    expect(meanOfRows(8, 632)).toBeGreaterThan(235);
    // Below: 405 source columns around the middle (480 × 1080 / 1280), the grey band at their centre.
    expect(meanOfRows(660, 1900, 440, 640)).toBeGreaterThan(110);
    expect(meanOfRows(660, 1900, 440, 640)).toBeLessThan(150);
    expect(meanOfRows(660, 1900, 0, 200)).toBeLessThan(20);
  });
});

/** Runs `filter` (from [0:v] to [out]) on a lavfi source: the output frames, 8-bit grey, back to back. */
async function grayOutputFrames(lavfiSource: string, filter: string): Promise<Buffer> {
  return readMediaStdout({
    binaryPath: resolveMediaBinaries().ffmpegPath,
    args: [
      ...["-v", "error", "-f", "lavfi", "-i", lavfiSource, "-filter_complex", filter, "-map", "[out]"],
      ...["-pix_fmt", "gray", "-f", "rawvideo", "pipe:1"],
    ],
    timeoutMs: 20_000,
  });
}

describe("the fit layout's background", () => {
  it("is redrawn on a hard cut, not only every third frame", async () => {
    // Black for 4 frames, then white: the cut is at frame 4, between two redraws (0, 3, 6).
    const filter = buildVerticalVideoFilter({
      layout: "fit",
      sourceWidth: 320,
      sourceHeight: 180,
      inputLabel: "0:v",
      outputLabel: "out",
    });
    const frameBytes = 1080 * 1920;
    const frames = await grayOutputFrames(
      "color=c=black:s=320x180:r=5:d=0.8[a];color=c=white:s=320x180:r=5:d=0.8[b];[a][b]concat=n=2:v=1:a=0",
      filter,
    );
    expect(frames.length).toBe(8 * frameBytes);
    // The middle of the top band (a background pixel) in each frame.
    const bandPixel = (frame: number) => frames[frame * frameBytes + 100 * 1080 + 540]!;
    expect(bandPixel(3)).toBeLessThan(40);
    expect(bandPixel(4)).toBeGreaterThan(180);
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
