import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MediaBinaries, resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { readMediaStdout, runMedia } from "@/media/run-ffmpeg";
import { GeminiVideoPreparationError } from "./describe-gemini-failure";
import { makeProbe } from "./gemini-test-fixtures";
import { makeVideoProxy } from "./make-video-proxy";

const system = resolveMediaBinaries();
const require = createRequire(import.meta.url);
const npm: MediaBinaries = resolveMediaBinaries({
  ffmpegPath: (require("@ffmpeg-installer/ffmpeg") as { path: string }).path,
  ffprobePath: (require("@ffprobe-installer/ffprobe") as { path: string }).path,
});

let workDir: string;
let landscape: string;
let portrait: string;
let privateTmp: string;
const originalTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  workDir = await mkdtemp(path.join(os.tmpdir(), "truss-proxy-test-"));
  // A temporary directory of this test file's own, so the leftovers check cannot see other
  // test files' proxies (os.tmpdir() follows TMPDIR; each test file runs in its own worker).
  privateTmp = path.join(workDir, "tmp");
  await mkdir(privateTmp);
  process.env.TMPDIR = privateTmp;
  landscape = path.join(workDir, "landscape.mp4");
  portrait = path.join(workDir, "portrait.mp4");
  const make = (output: string, size: string) =>
    runMedia({
      binaryPath: system.ffmpegPath,
      args: [
        ...["-hide_banner", "-loglevel", "error", "-y"],
        ...["-f", "lavfi", "-i", `testsrc=size=${size}:rate=25:duration=4`],
        ...["-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000:duration=4"],
        ...[
          "-ac",
          "2",
          "-c:v",
          "libx264",
          "-preset",
          "ultrafast",
          "-pix_fmt",
          "yuv420p",
          "-c:a",
          "aac",
          "-shortest",
        ],
        output,
      ],
      timeoutMs: 60_000,
    });
  await Promise.all([make(landscape, "960x540"), make(portrait, "540x960")]);
}, 60_000);

afterAll(async () => {
  if (originalTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = originalTmpdir;
  await rm(workDir, { recursive: true, force: true });
});

type ProbedStream = {
  codec_type: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
};

async function probeBytes(bytes: Uint8Array): Promise<ProbedStream[]> {
  const file = path.join(workDir, `probe-${Math.random().toString(36).slice(2)}.mp4`);
  await writeFile(file, bytes);
  const json = await readMediaStdout({
    binaryPath: system.ffprobePath,
    args: ["-v", "error", "-show_streams", "-of", "json", file],
    timeoutMs: 20_000,
  });
  return (JSON.parse(json.toString("utf8")) as { streams: ProbedStream[] }).streams;
}

async function tmpEntries(): Promise<string[]> {
  return readdir(privateTmp);
}

describe.each([
  ["system ffmpeg", system],
  ["npm ffmpeg (2018 build)", npm],
])("makeVideoProxy with %s", (_name, binaries) => {
  it("makes a 360p, 1 fps, mono 16 kHz MP4", async () => {
    const bytes = await makeVideoProxy({
      sourcePath: landscape,
      probe: makeProbe({ durationSeconds: 4 }),
      framesPerSecond: 1,
      maxBytes: 10_000_000,
      binaries,
    });
    const streams = await probeBytes(bytes);
    const video = streams.find((s) => s.codec_type === "video")!;
    const audio = streams.find((s) => s.codec_type === "audio")!;
    expect([video.width, video.height]).toEqual([640, 360]);
    expect(video.avg_frame_rate).toBe("1/1");
    expect([audio.sample_rate, audio.channels]).toEqual(["16000", 1]);
    expect(await tmpEntries()).toEqual([]);
  });

  it("keeps a portrait source portrait, 360 px wide", async () => {
    const bytes = await makeVideoProxy({
      sourcePath: portrait,
      probe: makeProbe({ durationSeconds: 4, width: 540, height: 960 }),
      framesPerSecond: 0.5,
      maxBytes: 10_000_000,
      binaries,
    });
    const video = (await probeBytes(bytes)).find((s) => s.codec_type === "video")!;
    expect([video.width, video.height]).toEqual([360, 640]);
  });
});

describe("makeVideoProxy limits", () => {
  it("refuses a proxy over the inline limit and leaves no temporary files", async () => {
    const error = await makeVideoProxy({
      sourcePath: landscape,
      probe: makeProbe({ durationSeconds: 4 }),
      framesPerSecond: 1,
      maxBytes: 1_000,
      binaries: system,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GeminiVideoPreparationError);
    expect((error as Error).message).toMatch(
      /too long to send to Gemini inline \(its proxy is [\d.]+ KB, the limit 1 KB\)/,
    );
    expect(await tmpEntries()).toEqual([]);
  });

  it("refuses a source with neither video nor audio", async () => {
    await expect(
      makeVideoProxy({
        sourcePath: landscape,
        probe: makeProbe({ hasVideo: false, hasAudio: false }),
        framesPerSecond: 1,
        maxBytes: 1_000_000,
        binaries: system,
      }),
    ).rejects.toThrow(GeminiVideoPreparationError);
  });
});
