import { describe, expect, it } from "vitest";
import { buildSourceFrameArgs } from "./source-frame-args";

describe("buildSourceFrameArgs", () => {
  it("seeks to the keyframe before the time and decodes only keyframes, before opening the input", () => {
    const args = buildSourceFrameArgs({ input: "/in/source.mp4", atSeconds: 12.3456 });
    const input = args.indexOf("-i");
    expect(args[input + 1]).toBe("file:/in/source.mp4");
    for (const option of ["-skip_frame:v", "-noaccurate_seek", "-ss"]) {
      expect(args.indexOf(option)).toBeGreaterThan(-1);
      expect(args.indexOf(option)).toBeLessThan(input);
    }
    expect(args[args.indexOf("-ss") + 1]).toBe("12.346");
    // One JPEG to stdout, each frame as decoded (no constant-rate output dropping the keyframe).
    expect(args[args.indexOf("-vsync") + 1]).toBe("passthrough");
    expect(args.slice(-7)).toEqual(["-q:v", "4", "-f", "image2pipe", "-c:v", "mjpeg", "pipe:1"]);
  });

  it("reads a URL with a read timeout and the pinning headers, and tone-maps an HDR picture first", () => {
    const args = buildSourceFrameArgs({
      input: "https://storage.test/source?X-Amz-Signature=abc",
      httpHeaders: { "If-Match": '"etag"' },
      atSeconds: 0,
      toneMapFilter: "lut3d=file=/tmp/map.cube",
    });
    expect(args).toContain("-rw_timeout");
    expect(args[args.indexOf("-headers") + 1]).toBe('If-Match: "etag"\r\n');
    expect(args[args.indexOf("-vf") + 1]).toMatch(/^lut3d=file=\/tmp\/map\.cube,scale=/);
  });

  it("refuses a time before the start", () => {
    expect(() => buildSourceFrameArgs({ input: "/in/source.mp4", atSeconds: -0.5 })).toThrow(
      /Invalid frame time/,
    );
    expect(() => buildSourceFrameArgs({ input: "/in/source.mp4", atSeconds: Number.NaN })).toThrow(/Invalid/);
  });
});
