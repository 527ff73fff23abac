import type { MediaProbe } from "@/engine/types";

/** What ffprobe reports for a plain 1080p30 H.264/AAC MP4, with the fields a test cares about changed. */
export function testProbe(overrides: Partial<MediaProbe> = {}): MediaProbe {
  return {
    durationSeconds: 120,
    width: 1920,
    height: 1080,
    codedWidth: 1920,
    codedHeight: 1080,
    sampleAspectRatio: 1,
    rotationDegrees: 0,
    fps: 30,
    isVariableFrameRate: false,
    hasVideo: true,
    hasAudio: true,
    videoCodec: "h264",
    audioCodec: "aac",
    bitrateBitsPerSecond: 4_000_000,
    formatName: "mov,mp4,m4a,3gp,3g2,mj2",
    dynamicRange: "sdr",
    sizeBytes: 60_000_000,
    ...overrides,
  };
}
