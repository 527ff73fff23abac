import { describe, expect, it } from "vitest";
import {
  chooseSampleFramesPerSecond,
  chooseVideoSource,
  GEMINI_INLINE_REQUEST_LIMIT_BYTES,
  MAX_INLINE_VIDEO_BYTES,
  MAX_URL_VIDEO_BYTES,
  urlMediaType,
} from "./choose-video-source";
import { makeProbe, SIGNED_SOURCE_URL } from "./gemini-test-fixtures";

describe("chooseVideoSource", () => {
  it("sends a presigned https URL as is", () => {
    const plan = chooseVideoSource({ sourceUrl: SIGNED_SOURCE_URL, probe: makeProbe() });
    expect(plan).toEqual({ kind: "url", url: new URL(SIGNED_SOURCE_URL), mediaType: "video/mp4" });
  });

  it("makes a proxy without a URL, or with one Google cannot fetch", () => {
    const proxy = { kind: "proxy", mediaType: "video/mp4" };
    expect(chooseVideoSource({ probe: makeProbe() })).toEqual(proxy);
    for (const sourceUrl of [
      "http://bucket.s3.amazonaws.com/a.mp4",
      "https://localhost:8701/truss-media/a.mp4",
      "https://127.0.0.1/a.mp4",
      "https://192.168.1.20/a.mp4",
      "https://10.0.0.5/a.mp4",
      "https://[::1]/a.mp4",
      "https://minio.local/a.mp4",
      "not a url",
    ]) {
      expect(chooseVideoSource({ sourceUrl, probe: makeProbe() }), sourceUrl).toEqual(proxy);
    }
  });

  it("makes a proxy when the source is bigger than Gemini fetches", () => {
    const probe = makeProbe({ sizeBytes: MAX_URL_VIDEO_BYTES + 1 });
    expect(chooseVideoSource({ sourceUrl: SIGNED_SOURCE_URL, probe }).kind).toBe("proxy");
  });

  it("makes a proxy for containers Gemini is not sent by URL", () => {
    const mkv = makeProbe({ formatName: "matroska,webm", videoCodec: "h264" });
    expect(chooseVideoSource({ sourceUrl: SIGNED_SOURCE_URL, probe: mkv }).kind).toBe("proxy");
    const ts = makeProbe({ formatName: "mpegts" });
    expect(chooseVideoSource({ sourceUrl: SIGNED_SOURCE_URL, probe: ts }).kind).toBe("proxy");
  });

  it("sends audio-only sources as an audio proxy", () => {
    const probe = makeProbe({ hasVideo: false, videoCodec: null });
    expect(chooseVideoSource({ sourceUrl: SIGNED_SOURCE_URL, probe })).toEqual({
      kind: "proxy",
      mediaType: "audio/mp4",
    });
  });
});

describe("urlMediaType", () => {
  it("names the container", () => {
    expect(urlMediaType({ formatName: "mov,mp4,m4a,3gp,3g2,mj2", videoCodec: "h264", hasVideo: true })).toBe(
      "video/mp4",
    );
    expect(urlMediaType({ formatName: "matroska,webm", videoCodec: "vp9", hasVideo: true })).toBe(
      "video/webm",
    );
    expect(urlMediaType({ formatName: "avi", videoCodec: "mpeg4", hasVideo: true })).toBe("video/avi");
  });
});

describe("inline limits", () => {
  it("leaves room for base64 inside Google's 100 MB payload", () => {
    expect(Math.ceil(MAX_INLINE_VIDEO_BYTES / 3) * 4).toBeLessThan(GEMINI_INLINE_REQUEST_LIMIT_BYTES);
  });
});

describe("chooseSampleFramesPerSecond", () => {
  it("samples one frame per second up to about two hours and ten minutes", () => {
    expect(chooseSampleFramesPerSecond(60)).toBe(1);
    expect(chooseSampleFramesPerSecond(2 * 3600)).toBe(1);
    expect(chooseSampleFramesPerSecond(2.5 * 3600)).toBeLessThan(1);
  });

  it("samples longer videos more sparsely, never below 0.1 fps", () => {
    const fourHours = chooseSampleFramesPerSecond(4 * 3600);
    expect(fourHours).toBeLessThan(1);
    expect(fourHours).toBeGreaterThan(0.3);
    // Frames and audio of a 4-hour video then fit the input budget.
    expect(4 * 3600 * (fourHours * 70 + 32)).toBeLessThanOrEqual(800_000);
    expect(chooseSampleFramesPerSecond(100 * 3600)).toBe(0.1);
  });
});
