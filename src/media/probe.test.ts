import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefectFixtures, type DefectFixtures } from "@/engine/testing/defect-fixtures";
import { resolveMediaBinaries } from "./ffmpeg-binaries";
import {
  describeProbeFailure,
  isVariableFrameRate,
  MediaProbeError,
  parseProbeJson,
  probeMedia,
} from "./probe";
import { buildProbeArgs, toMediaInputArg } from "./probe-args";

const binaries = resolveMediaBinaries();
let directory = "";
let fixtures: DefectFixtures;

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "truss-probe-"));
  fixtures = await createDefectFixtures({ binaries, directory });
}, 60_000);

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

async function probeError(input: string): Promise<MediaProbeError> {
  const error = await probeMedia({ binaries, input }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(MediaProbeError);
  return error as MediaProbeError;
}

describe("buildProbeArgs", () => {
  it("asks for JSON streams and format, naming local files with the file: protocol", () => {
    expect(buildProbeArgs({ input: "/tmp/-odd:name.mp4" })).toEqual([
      "-v",
      "error",
      "-hide_banner",
      "-print_format",
      "json",
      "-show_format",
      "-show_streams",
      "file:/tmp/-odd:name.mp4",
    ]);
  });

  it("adds an I/O timeout in microseconds for URLs", () => {
    const args = buildProbeArgs({
      input: "https://bucket.example/v.mp4?X-Amz-Signature=1",
      ioTimeoutMs: 5_000,
    });
    expect(args.slice(3, 5)).toEqual(["-rw_timeout", "5000000"]);
    expect(args.at(-1)).toBe("https://bucket.example/v.mp4?X-Amz-Signature=1");
  });

  it("sends the given headers with every request for a URL, and never header lines smuggled in a value", () => {
    const url = "https://bucket.example/v.mp4?X-Amz-Signature=1";
    const args = buildProbeArgs({ input: url, ioTimeoutMs: 5_000, httpHeaders: { "If-Match": '"abc"' } });
    expect(args.slice(3, 7)).toEqual(["-rw_timeout", "5000000", "-headers", 'If-Match: "abc"\r\n']);
    expect(args.at(-1)).toBe(url);
    // A local file has no requests to carry them.
    expect(buildProbeArgs({ input: "/tmp/v.mp4", httpHeaders: { "If-Match": '"abc"' } })).not.toContain(
      "-headers",
    );
    expect(() => buildProbeArgs({ input: url, httpHeaders: { "If-Match": '"a"\r\nX-Evil: 1' } })).toThrow(
      /line break/,
    );
    expect(() => buildProbeArgs({ input: url, httpHeaders: { "If-Match\r\nX": "1" } })).toThrow(/line break/);
  });

  it("refuses other protocols", () => {
    expect(() => toMediaInputArg("concat:/etc/passwd|x.mp4")).toThrow(/file path or an http/);
    expect(() => toMediaInputArg("ftp://host/x.mp4")).toThrow();
  });
});

describe("parseProbeJson", () => {
  const videoStream = {
    codec_type: "video",
    codec_name: "h264",
    width: 1920,
    height: 1080,
    r_frame_rate: "30/1",
    avg_frame_rate: "30/1",
  };

  it("says where a picture that stops early ends, on the file's clock", () => {
    const audio = { codec_type: "audio", codec_name: "aac", duration: "60" };
    const endsAt = (video: object, format: object) =>
      parseProbeJson({
        streams: [{ ...videoStream, ...video }, audio],
        format: { duration: "60", ...format },
      }).pictureEndSeconds;
    expect(endsAt({ duration: "20" }, {})).toBe(20);
    // A capture whose clock starts at an hour, the picture 0.1 s after the sound.
    expect(endsAt({ duration: "20", start_time: "3600.1" }, { start_time: "3600" })).toBeCloseTo(20.1, 3);
    // Runs to the end (within a second), or the header does not say.
    expect(endsAt({ duration: "59.5" }, {})).toBeNull();
    expect(endsAt({ duration: undefined }, {})).toBeNull();
  });

  it("turns a display matrix into a clockwise rotation and swaps the displayed size", () => {
    const probe = parseProbeJson({
      streams: [{ ...videoStream, side_data_list: [{ side_data_type: "Display Matrix", rotation: -90 }] }],
      format: { duration: "12.5", format_name: "mov,mp4", size: "1000", bit_rate: "640" },
    });
    expect(probe).toMatchObject({ rotationDegrees: 90, width: 1080, height: 1920, codedWidth: 1920 });
    expect(probe).toMatchObject({ durationSeconds: 12.5, hasAudio: false, sizeBytes: 1000 });
  });

  it("reads the older rotate tag", () => {
    const probe = parseProbeJson({
      streams: [{ ...videoStream, tags: { rotate: "180" } }],
      format: { duration: "3" },
    });
    expect(probe).toMatchObject({ rotationDegrees: 180, width: 1920, height: 1080 });
  });

  it("sizes non-square pixels as shown: HDV's 1440×1080 at 4:3 is 1920×1080", () => {
    const probe = parseProbeJson({
      streams: [{ ...videoStream, width: 1440, height: 1080, sample_aspect_ratio: "4:3" }],
      format: { duration: "3" },
    });
    expect(probe).toMatchObject({ width: 1920, height: 1080, codedWidth: 1440, sampleAspectRatio: 1.3333 });
    const square = (sample_aspect_ratio?: string) =>
      parseProbeJson({ streams: [{ ...videoStream, sample_aspect_ratio }], format: { duration: "3" } });
    for (const ratio of ["1:1", "0:1", "N/A", undefined]) {
      expect(square(ratio)).toMatchObject({ width: 1920, sampleAspectRatio: 1 });
    }
  });

  it("tells HDR (HLG, PQ) from SDR by the transfer characteristic", () => {
    const rangeOf = (color_transfer?: string) =>
      parseProbeJson({ streams: [{ ...videoStream, color_transfer }], format: { duration: "3" } })
        .dynamicRange;
    expect(rangeOf("arib-std-b67")).toBe("hlg");
    expect(rangeOf("smpte2084")).toBe("pq");
    expect(rangeOf("bt709")).toBe("sdr");
    expect(rangeOf(undefined)).toBe("sdr");
  });

  it("treats cover art as no video", () => {
    expect(() =>
      parseProbeJson({
        streams: [
          { codec_type: "audio", codec_name: "mp3" },
          { ...videoStream, disposition: { attached_pic: 1 } },
        ],
        format: { duration: "200" },
      }),
    ).toThrow("This file has no video stream (it is audio only).");
  });

  it("rejects a file without duration or picture size", () => {
    expect(() => parseProbeJson({ streams: [videoStream], format: {} })).toThrow(/no playable duration/);
    expect(() =>
      parseProbeJson({ streams: [{ ...videoStream, width: 0, height: 0 }], format: { duration: "2" } }),
    ).toThrow(/no picture size/);
  });

  it("calls a rate variable when the nominal and average rates disagree by more than 1%", () => {
    expect(isVariableFrameRate(30, 30)).toBe(false);
    expect(isVariableFrameRate(30, 29.97)).toBe(false);
    expect(isVariableFrameRate(30, 15.25)).toBe(true);
    expect(isVariableFrameRate(undefined, 30)).toBe(false);
  });
});

describe("describeProbeFailure", () => {
  const url =
    "http://127.0.0.1:8701/truss-media/creators/cr_1/videos/vid_1/source?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=S3RVER%2F20261202&X-Amz-Signature=abc";

  it("never repeats the presigned URL ffprobe names, only what it said of it", () => {
    const failure = describeProbeFailure(`${url}: Operation not permitted\n`, url);
    expect(failure).toEqual({
      kind: "unreadable",
      message: "This file could not be read (Operation not permitted).",
    });
    const other = describeProbeFailure(
      `[mov @ 0x55d0] error reading header\nhttp://elsewhere/x?sig=1: Unknown error`,
      url,
    );
    expect(other.message).not.toMatch(/http|sig=|X-Amz/);
  });

  it("calls noise a demuxer mistook for MP3 not a video (ffprobe says 'Invalid argument')", () => {
    const stderr = `[mp3 @ 0x556d4e6711c0] Failed to read frame size: Could not seek to 2023.\n${url}: Invalid argument\n`;
    expect(describeProbeFailure(stderr, url)).toEqual({
      kind: "unreadable",
      message: "This file is not a video we can read: its data is invalid or corrupt.",
    });
  });

  it("names a local file's failure without its path", () => {
    const failure = describeProbeFailure(
      "file:/tmp/truss-x/source.mp4: Permission denied\n",
      "/tmp/truss-x/source.mp4",
    );
    expect(failure.message).toBe("This file could not be read (Permission denied).");
  });

  it("treats a connection cut while reading a URL as network trouble, which may pass", () => {
    expect(describeProbeFailure(`${url}: Input/output error\n`, url).kind).toBe("unreachable");
    expect(describeProbeFailure(`${url}: Connection reset by peer\n`, url).kind).toBe("unreachable");
  });
});

describe("probeMedia on defect fixtures", () => {
  it("reads a source without audio", async () => {
    const probe = await probeMedia({ binaries, input: fixtures["no-audio"] });
    expect(probe).toMatchObject({
      hasVideo: true,
      hasAudio: false,
      audioCodec: null,
      width: 320,
      height: 180,
    });
    expect(probe.durationSeconds).toBeCloseTo(4, 0);
  });

  it("reads a vertical source", async () => {
    const probe = await probeMedia({ binaries, input: fixtures.vertical });
    expect(probe).toMatchObject({ width: 180, height: 320, rotationDegrees: 0, hasAudio: true, fps: 30 });
  });

  it("reports a rotated source upright", async () => {
    const probe = await probeMedia({ binaries, input: fixtures.rotated });
    expect([90, 270]).toContain(probe.rotationDegrees);
    expect(probe).toMatchObject({ width: 180, height: 320, codedWidth: 320, codedHeight: 180 });
  });

  it("detects a variable frame rate", async () => {
    const probe = await probeMedia({ binaries, input: fixtures["variable-frame-rate"] });
    expect(probe.isVariableFrameRate).toBe(true);
    expect(probe.fps).toBeLessThan(25);
  });

  it("reads a one-second source", async () => {
    const probe = await probeMedia({ binaries, input: fixtures["one-second"] });
    expect(probe.durationSeconds).toBeGreaterThan(0.9);
    expect(probe.durationSeconds).toBeLessThan(1.2);
  });

  it("measures a browser recording that states no duration (live WebM) from its packets", async () => {
    const probe = await probeMedia({ binaries, input: fixtures["no-duration"] });
    expect(probe).toMatchObject({ formatName: "matroska,webm", videoCodec: "vp8", hasAudio: true });
    expect(probe.durationSeconds).toBeGreaterThan(3.9);
    expect(probe.durationSeconds).toBeLessThan(4.1);
  });

  it("says an audio file has no video", async () => {
    const error = await probeError(fixtures["audio-only"]);
    expect(error.kind).toBe("no-video");
    expect(error.message).toBe("This file has no video stream (it is audio only).");
  });

  it("reads a file whose media data is damaged (decoding copes with the damage later)", async () => {
    const probe = await probeMedia({ binaries, input: fixtures.corrupt });
    expect(probe).toMatchObject({ hasVideo: true, hasAudio: true, width: 320 });
  });

  it("says noise named .mp4 is not a readable video", async () => {
    const error = await probeError(fixtures["not-a-video"]);
    expect(error.kind).toBe("unreadable");
    expect(error.message).toMatch(/not a video we can read/);
  });

  it("says a truncated MP4 is incomplete", async () => {
    const error = await probeError(fixtures.truncated);
    expect(error.kind).toBe("truncated");
    expect(error.message).toMatch(/incomplete/);
  });

  it("says a missing file was not found", async () => {
    const error = await probeError(path.join(directory, "missing.mp4"));
    expect(error.kind).toBe("not-found");
  });

  it("reads a source over http (the worker probes presigned URLs)", async () => {
    const server = createServer((request, response) => {
      if (request.url?.startsWith("/vertical.mp4?")) {
        response.writeHead(200, { "content-type": "video/mp4" });
        createReadStream(fixtures.vertical).pipe(response);
      } else response.writeHead(403).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const probe = await probeMedia({ binaries, input: `${base}/vertical.mp4?X-Amz-Signature=abc` });
      expect(probe).toMatchObject({ width: 180, height: 320 });
      const error = await probeError(`${base}/expired.mp4?X-Amz-Signature=old`);
      expect(error.kind).toBe("unreachable");
      expect(error.message).toMatch(/could not be fetched \(403/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("says an unreachable URL could not be reached", async () => {
    const error = await probeError("http://127.0.0.1:9/video.mp4");
    expect(error.kind).toBe("unreachable");
  });
});
