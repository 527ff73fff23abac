import { describe, expect, it } from "vitest";
import { escapeFilterValue } from "@/media/escape-filter-value";
import { type BuildRenderArgsOptions, buildRenderArgs } from "./build-render-args";
import { parseProgressSeconds } from "./parse-progress";

const base: BuildRenderArgsOptions = {
  sourcePath: "/videos/source.mp4",
  startSeconds: 12,
  durationSeconds: 30,
  layout: { layout: "crop", cropXExpression: "clip(iw*(0.5)-ow/2,0,iw-ow)", sourceHeight: 1080 },
  toneMapFilter: null,
  squarePixelSize: null,
  outputFramesPerSecond: null,
  decoderThreads: 2,
  captions: null,
  audio: { kind: "source", filter: "loudnorm=I=-14,aresample=48000" },
  videoPath: "/work/clip.mp4",
  thumbnail: { atSeconds: 4, path: "/work/thumb.jpg" },
  preview: { format: "webp", path: "/work/preview.webp" },
};

function valueAfter(args: string[], flag: string, occurrence = 0): string | undefined {
  const indexes = args.flatMap((arg, index) => (arg === flag ? [index] : []));
  const index = indexes[occurrence];
  return index === undefined ? undefined : args[index + 1];
}

describe("buildRenderArgs", () => {
  it("tags a tone-mapped clip BT.709 and leaves an SDR source's colours untagged", () => {
    const hdr = buildRenderArgs({ ...base, toneMapFilter: "zscale=t=linear" });
    expect(hdr.join(" ")).toContain("zscale=t=linear");
    expect(valueAfter(hdr, "-color_primaries")).toBe("bt709");
    expect(valueAfter(hdr, "-color_trc")).toBe("bt709");
    expect(valueAfter(hdr, "-colorspace")).toBe("bt709");
    expect(buildRenderArgs(base)).not.toContain("-color_trc");
  });

  it("decodes the segment once and writes the clip, the thumbnail and the preview", () => {
    const args = buildRenderArgs(base);
    expect(args.filter((arg) => arg === "-i")).toHaveLength(1);
    expect(args.join(" ")).toContain("-ss 12.000 -t 30.000 -i file:/videos/source.mp4");
    const graph = valueAfter(args, "-filter_complex")!;
    expect(graph).toContain("[0:v]null[src]");
    expect(graph).toContain("[framed]split=3[main][clean][forpreview]");
    expect(graph).toContain("[main]format=yuv420p[vout]");
    expect(graph).toContain("[clean]trim=start=4.000:end=4.500");
    expect(graph).toContain(
      "[0:a:0]loudnorm=I=-14,aresample=48000,aformat=channel_layouts=mono|stereo," +
        "afade=t=in:d=0.020,afade=t=out:st=29.980:d=0.020[aout]",
    );
    // Outputs in order: the clip, then the thumbnail, then the preview.
    const outputs = [base.videoPath, base.thumbnail.path, base.preview.path].map((file) =>
      args.indexOf(file),
    );
    expect(outputs).toEqual([...outputs].sort((a, b) => a - b));
    expect(outputs[0]).toBeGreaterThan(args.indexOf("-filter_complex"));
  });

  it("encodes H.264 high/yuv420p + AAC 48 kHz (mono or stereo, as the source), faststart, with machine-readable progress", () => {
    const args = buildRenderArgs(base);
    expect(valueAfter(args, "-c:v")).toBe("libx264");
    expect(valueAfter(args, "-preset")).toBe("veryfast");
    // The source's decoder threads, given before the input; x264 keeps its own thread count.
    expect(valueAfter(args, "-threads")).toBe(String(base.decoderThreads));
    expect(args.indexOf("-threads")).toBeLessThan(args.indexOf("-i"));
    expect(args.lastIndexOf("-threads")).toBe(args.indexOf("-threads"));
    expect(valueAfter(args, "-filter_complex_threads")).toBe("1");
    expect(valueAfter(args, "-pix_fmt")).toBe("yuv420p");
    expect(valueAfter(args, "-c:a")).toBe("aac");
    expect(valueAfter(args, "-ar")).toBe("48000");
    // No channel count: the audio graph keeps mono mono and folds anything wider to stereo.
    expect(args).not.toContain("-ac");
    expect(valueAfter(args, "-filter_complex")).toMatch(/aformat=channel_layouts=mono\|stereo,afade/);
    expect(valueAfter(args, "-movflags")).toBe("+faststart");
    expect(valueAfter(args, "-progress")).toBe("pipe:2");
    expect(args).toContain("-nostats");
    expect(valueAfter(args, "-map", 0)).toBe("[vout]");
    expect(valueAfter(args, "-map", 1)).toBe("[aout]");
  });

  it("stops at a failed read of a URL source (with its headers on every request), not at a local file's", () => {
    const url = "https://bucket.example/source.mp4?X-Amz-Signature=abc";
    const remote = buildRenderArgs({ ...base, sourcePath: url, sourceHttpHeaders: { "If-Match": '"e1"' } });
    expect(remote.indexOf("-xerror")).toBeGreaterThan(-1);
    expect(remote.indexOf("-xerror")).toBeLessThan(remote.indexOf("-i"));
    expect(valueAfter(remote, "-headers")).toBe('If-Match: "e1"\r\n');
    expect(remote.indexOf("-headers")).toBeLessThan(remote.indexOf(url));
    expect(buildRenderArgs(base)).not.toContain("-xerror");
  });

  it("adds a silent track for a source without audio", () => {
    const args = buildRenderArgs({ ...base, audio: { kind: "silent" } });
    expect(args.filter((arg) => arg === "-i")).toHaveLength(2);
    expect(valueAfter(args, "-i", 1)).toBe("anullsrc=channel_layout=mono:sample_rate=48000");
    expect(valueAfter(args, "-filter_complex")).toContain("[1:a]anull[aout]");
    expect(valueAfter(args, "-filter_complex")).not.toContain("[0:a");
  });

  it("burns captions after the thumbnail's split, so the thumbnail is clean and the preview captioned", () => {
    const graph = valueAfter(
      buildRenderArgs({
        ...base,
        captions: { assPath: "/tmp/w:1/captions.ass", fontsDirectory: "/tmp/w:1/fonts" },
      }),
      "-filter_complex",
    )!;
    expect(graph).toContain("[framed]split=2[clean][uncaptioned]");
    expect(graph).toContain(
      "[uncaptioned]subtitles=filename=/tmp/w\\\\:1/captions.ass:fontsdir=/tmp/w\\\\:1/fonts,split=2[main][forpreview]",
    );
  });

  it("resamples to a constant rate when asked", () => {
    const graph = valueAfter(buildRenderArgs({ ...base, outputFramesPerSecond: 30 }), "-filter_complex")!;
    expect(graph).toContain("[0:v]fps=30[src]");
  });

  it("stretches non-square pixels to the displayed size before anything else", () => {
    const options = { ...base, squarePixelSize: { width: 1920, height: 1080 }, outputFramesPerSecond: 30 };
    const graph = valueAfter(buildRenderArgs(options), "-filter_complex")!;
    expect(graph).toContain("[0:v]scale=1920:1080,setsar=1,fps=30[src]");
  });
});

describe("escapeFilterValue", () => {
  it("escapes for the option level, then the graph level", () => {
    expect(escapeFilterValue("/plain/path.ass")).toBe("/plain/path.ass");
    // Option level: a\:b; graph level doubles that backslash (the colon only matters inside).
    expect(escapeFilterValue("a:b")).toBe("a\\\\:b");
    expect(escapeFilterValue("it's")).toBe("it\\\\\\'s");
    expect(escapeFilterValue("x,y;[z]")).toBe("x\\,y\\;\\[z\\]");
  });
});

describe("parseProgressSeconds", () => {
  it("reads out_time in its three spellings and ignores other lines", () => {
    expect(parseProgressSeconds("out_time_us=2500000")).toBe(2.5);
    expect(parseProgressSeconds("out_time_ms=1000000")).toBe(1);
    expect(parseProgressSeconds("out_time=00:01:02.500000")).toBe(62.5);
    expect(parseProgressSeconds("out_time_us=-23000")).toBe(0);
    expect(parseProgressSeconds("out_time=-00:00:00.023000")).toBe(0);
    expect(parseProgressSeconds("out_time_us=N/A")).toBeNull();
    expect(parseProgressSeconds("frame=12")).toBeNull();
    expect(parseProgressSeconds("progress=end")).toBeNull();
  });
});
