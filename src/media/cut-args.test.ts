import { describe, expect, it } from "vitest";
import { buildSegmentInputArgs, formatSeconds } from "./cut-args";

describe("buildSegmentInputArgs", () => {
  it("seeks before the input so timestamps restart at the segment", () => {
    expect(
      buildSegmentInputArgs({ input: "/videos/a b.mp4", startSeconds: 12.3456, durationSeconds: 30 }),
    ).toEqual(["-ss", "12.346", "-t", "30.000", "-i", "file:/videos/a b.mp4"]);
  });

  it("adds the decoder speedups only for analysis", () => {
    const args = buildSegmentInputArgs({
      input: "/v.mp4",
      startSeconds: 0,
      durationSeconds: 1,
      fastDecode: true,
    });
    // On the video decoder only: the segment's audio may be metered in the same run.
    expect(args.slice(0, 4)).toEqual(["-skip_loop_filter:v", "all", "-flags2:v", "fast"]);
    expect(args.indexOf("-skip_loop_filter:v")).toBeLessThan(args.indexOf("-i"));
  });

  it("can leave B-frames or unreferenced frames undecoded for analysis", () => {
    const segment = { input: "/v.mp4", startSeconds: 0, durationSeconds: 1 };
    expect(buildSegmentInputArgs({ ...segment, skipFrames: "bidir" }).slice(0, 2)).toEqual([
      "-skip_frame:v",
      "bidir",
    ]);
    expect(buildSegmentInputArgs({ ...segment, skipFrames: "noref" }).slice(0, 2)).toEqual([
      "-skip_frame:v",
      "noref",
    ]);
    expect(buildSegmentInputArgs(segment)).not.toContain("-skip_frame:v");
  });
  it("sets the video decoder's threads only when asked", () => {
    const args = buildSegmentInputArgs({
      input: "/v.mp4",
      startSeconds: 0,
      durationSeconds: 1,
      videoDecoderThreads: 1,
    });
    expect(args.slice(0, 2)).toEqual(["-threads:v", "1"]);
    expect(buildSegmentInputArgs({ input: "/v.mp4", startSeconds: 0, durationSeconds: 1 })).not.toContain(
      "-threads:v",
    );
  });

  it("reads a URL with a timeout, the given headers on every request and a failed read an error; a file with none of these", () => {
    const url = "https://bucket.example/source.mp4?X-Amz-Signature=abc";
    const args = buildSegmentInputArgs({
      input: url,
      startSeconds: 1,
      durationSeconds: 2,
      httpHeaders: { "If-Match": '"etag-1"' },
    });
    expect(args.slice(args.indexOf("-rw_timeout"), args.indexOf("-ss"))).toEqual([
      "-rw_timeout",
      "30000000",
      "-headers",
      'If-Match: "etag-1"\r\n',
    ]);
    expect(args.at(-1)).toBe(url);
    expect(args).toContain("-xerror");
    const local = buildSegmentInputArgs({
      input: "/v.mp4",
      startSeconds: 1,
      durationSeconds: 2,
      httpHeaders: { "If-Match": '"etag-1"' },
    });
    expect(local).not.toContain("-headers");
    expect(local).not.toContain("-rw_timeout");
    expect(local).not.toContain("-xerror");
  });

  it("refuses an empty or negative segment", () => {
    expect(() => buildSegmentInputArgs({ input: "/v.mp4", startSeconds: 5, durationSeconds: 0 })).toThrow(
      /Invalid segment/,
    );
    expect(() => buildSegmentInputArgs({ input: "/v.mp4", startSeconds: -1, durationSeconds: 2 })).toThrow();
    expect(() =>
      buildSegmentInputArgs({ input: "/v.mp4", startSeconds: Number.NaN, durationSeconds: 2 }),
    ).toThrow();
  });

  it("formats seconds to the millisecond", () => {
    expect(formatSeconds(0)).toBe("0.000");
    expect(formatSeconds(1.0004)).toBe("1.000");
    expect(formatSeconds(59.9996)).toBe("60.000");
  });
});
