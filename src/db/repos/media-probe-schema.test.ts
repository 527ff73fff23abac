import { describe, expect, it } from "vitest";
import { MediaProbeSchema } from "./video-repo";

describe("MediaProbeSchema", () => {
  const stored = {
    durationSeconds: 12,
    width: 1920,
    height: 1080,
    codedWidth: 1920,
    codedHeight: 1080,
    rotationDegrees: 0,
    fps: 30,
    isVariableFrameRate: false,
    hasVideo: true,
    hasAudio: true,
    videoCodec: "hevc",
    audioCodec: "aac",
    bitrateBitsPerSecond: 8_000_000,
    formatName: "mov,mp4,m4a,3gp,3g2,mj2",
    sizeBytes: 12_000_000,
  };

  it("reads a probe stored before the dynamic range was recorded as SDR", () => {
    expect(MediaProbeSchema.parse(stored).dynamicRange).toBe("sdr");
  });

  it("keeps a recorded HDR range and refuses an unknown one", () => {
    expect(MediaProbeSchema.parse({ ...stored, dynamicRange: "hlg" }).dynamicRange).toBe("hlg");
    expect(() => MediaProbeSchema.parse({ ...stored, dynamicRange: "dolby" })).toThrow();
  });
});
