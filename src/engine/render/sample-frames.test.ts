import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeTestVideo } from "@/engine/testing/encode-test-video";
import type { SkippedFrames } from "@/media/cut-args";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { sampleFrames } from "./sample-frames";

/**
 * Serves `bytes` with range requests, as S3 does, but every response breaks off (the connection
 * drops) once it reaches `breakAtByte`: a network failure in the middle of a source.
 */
async function serveBreakingOff(
  bytes: Buffer,
  breakAtByte: number,
): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    const range = /^bytes=(\d+)-(\d*)$/.exec(request.headers.range ?? "");
    const start = range ? Number(range[1]) : 0;
    const end = range?.[2] ? Number(range[2]) : bytes.length - 1;
    response.writeHead(range ? 206 : 200, {
      "content-type": "video/mp4",
      "content-length": String(end - start + 1),
      "accept-ranges": "bytes",
      ...(range ? { "content-range": `bytes ${start}-${end}/${bytes.length}` } : {}),
    });
    if (end < breakAtByte) return void response.end(bytes.subarray(start, end + 1));
    response.write(bytes.subarray(start, Math.max(start, breakAtByte)), () => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/source.mp4`, server };
}

const binaries = resolveMediaBinaries();

/** Mean absolute difference of two same-sized frames' bytes (0–255). */
function meanDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let index = 0; index < a.length; index += 1) sum += Math.abs(a[index]! - b[index]!);
  return sum / a.length;
}
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "truss-sample-frames-test-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("sampleFrames", () => {
  it("reads missing-reference complaints from the decoder only, not from the file's tags", async () => {
    // At the info level (to meter the audio) ffmpeg prints the file's tags, which are anyone's.
    const tagged = path.join(directory, "tagged.mp4");
    await encodeTestVideo({
      binaries,
      inputArgs: ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=10:d=3", "-f", "lavfi", "-i", "sine=d=3"],
      outputArgs: ["-c:a", "aac", "-shortest", "-metadata", "title=reference picture missing, concealing"],
      outputPath: tagged,
    });
    const sampled = await sampleFrames({
      ffmpegPath: binaries.ffmpegPath,
      sourcePath: tagged,
      startSeconds: 0,
      durationSeconds: 3,
      width: 64,
      height: 48,
      sampling: { kind: "rate", framesPerSecond: 4 },
      meterLoudness: true,
      timeoutMs: 30_000,
      onFrame: () => undefined,
    });
    expect(sampled.referenceErrors).toBe(0);
    expect(sampled.frameCount).toBe(12);
    expect(sampled.loudness?.integratedLufs).toBeGreaterThan(-30);
  });

  it("samples HEVC without the frames nothing refers to, each sample still a whole picture", async () => {
    // x265 with three B-frames between references and none of them a reference itself.
    const hevc = path.join(directory, "hevc-b-frames.mp4");
    await encodeTestVideo({
      binaries,
      inputArgs: ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=3"],
      outputArgs: [
        "-c:v",
        "libx265",
        "-x265-params",
        "log-level=error:bframes=3:b-pyramid=0",
        "-tag:v",
        "hvc1",
      ],
      outputPath: hevc,
    });
    const sample = async (skipFrames?: SkippedFrames) => {
      const frames: Uint8Array[] = [];
      const sampled = await sampleFrames({
        ffmpegPath: binaries.ffmpegPath,
        sourcePath: hevc,
        startSeconds: 0,
        durationSeconds: 3,
        width: 64,
        height: 48,
        sampling: { kind: "rate", framesPerSecond: 4, skipFrames },
        timeoutMs: 30_000,
        onFrame: (frame) => {
          frames.push(Uint8Array.from(frame.data));
        },
      });
      return { ...sampled, frames };
    };
    const everyFrame = await sample();
    const referencesOnly = await sample("noref");
    expect(referencesOnly.referenceErrors).toBe(0);
    expect(referencesOnly.frameCount).toBe(12);
    expect(referencesOnly.frameCount).toBe(everyFrame.frameCount);
    // Each sample is the nearest decoded frame, at most two frames (67 ms) from the full
    // decode's: 0–12 apart (mean per byte) on this moving pattern, where a grey or concealed
    // picture would be far off.
    const differences = referencesOnly.frames.map((frame, index) =>
      meanDifference(frame, everyFrame.frames[index]!),
    );
    expect(Math.max(...differences)).toBeLessThan(25);
  });

  it("cuts regions out of each keyframe at the source's resolution and stacks them in one frame", async () => {
    // Quadrants of four colours; keyframes every second.
    const quadrants = path.join(directory, "quadrants.mp4");
    await encodeTestVideo({
      binaries,
      inputArgs: [
        ...["red", "lime", "blue", "white"].flatMap((colour) => [
          "-f",
          "lavfi",
          "-i",
          `color=c=${colour}:s=160x120:r=10:d=3`,
        ]),
        "-filter_complex",
        "[0:v][1:v]hstack[top];[2:v][3:v]hstack[bottom];[top][bottom]vstack",
      ],
      outputArgs: ["-g", "10"],
      outputPath: quadrants,
    });
    const frames: { width: number; height: number; data: Uint8Array }[] = [];
    const sampled = await sampleFrames({
      ffmpegPath: binaries.ffmpegPath,
      sourcePath: quadrants,
      startSeconds: 0,
      durationSeconds: 3,
      width: 32,
      height: 24,
      // The middle of the top-right quadrant (lime), then the middle of the bottom-left (blue).
      regions: [
        { x: 0.6, y: 0.1, width: 0.3, height: 0.3 },
        { x: 0.1, y: 0.6, width: 0.3, height: 0.3 },
      ],
      sampling: { kind: "keyframes", minSpacingSeconds: 0.25 },
      timeoutMs: 30_000,
      onFrame: (frame) => {
        frames.push({ ...frame, data: Uint8Array.from(frame.data) });
      },
    });
    expect(sampled.frameTimesSeconds).toEqual([0, 1, 2]);
    const pixel = (frame: (typeof frames)[number], x: number, y: number) =>
      Array.from(frame.data.subarray((y * frame.width + x) * 3, (y * frame.width + x) * 3 + 3));
    for (const frame of frames) {
      expect(frame).toMatchObject({ width: 32, height: 48 });
      const [r1, g1, b1] = pixel(frame, 16, 12);
      const [r2, g2, b2] = pixel(frame, 16, 36);
      expect(g1! - Math.max(r1!, b1!)).toBeGreaterThan(150);
      expect(b2! - Math.max(r2!, g2!)).toBeGreaterThan(150);
    }
  });

  it("fails when a URL source breaks off mid-segment, rather than ending on the frames it got", async () => {
    // The index first (as uploads are stored for reading over HTTP), then 6 s of pictures.
    const source = path.join(directory, "faststart.mp4");
    await encodeTestVideo({
      binaries,
      inputArgs: ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=10:d=6", "-f", "lavfi", "-i", "sine=d=6"],
      outputArgs: ["-c:a", "aac", "-shortest", "-movflags", "+faststart"],
      outputPath: source,
    });
    const bytes = await readFile(source);
    const { url, server } = await serveBreakingOff(bytes, Math.round(bytes.length * 0.6));
    try {
      const sample = (meterLoudness: boolean) =>
        sampleFrames({
          ffmpegPath: binaries.ffmpegPath,
          sourcePath: url,
          startSeconds: 0,
          durationSeconds: 6,
          width: 64,
          height: 48,
          sampling: { kind: "rate", framesPerSecond: 4 },
          meterLoudness,
          timeoutMs: 30_000,
          onFrame: () => undefined,
        });
      await expect(sample(false)).rejects.toThrow();
      await expect(sample(true)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
  describe("split at keyframes into parts decoded side by side", () => {
    // Keyframes every 100 frames at 30 fps: at 3.333… s and 6.666… s, stored as 3.333 and 6.667
    // (a signal curve keeps milliseconds), so one is stored a hair before the keyframe.
    let source: string;
    beforeAll(async () => {
      source = path.join(directory, "keyframes-every-3.3s.mp4");
      await encodeTestVideo({
        binaries,
        inputArgs: ["-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=10", "-f", "lavfi", "-i", "sine=d=10"],
        outputArgs: [
          "-g",
          "100",
          "-keyint_min",
          "100",
          "-sc_threshold",
          "0",
          "-bf",
          "2",
          "-c:a",
          "aac",
          "-shortest",
        ],
        outputPath: source,
      });
    });
    const sample = async (
      splitsSeconds: number[],
      onFrame?: (index: number) => void,
      sourcePath: string = source,
    ) => {
      const frames: Uint8Array[] = [];
      const sampled = await sampleFrames({
        ffmpegPath: binaries.ffmpegPath,
        sourcePath,
        startSeconds: 0.5,
        durationSeconds: 9,
        width: 64,
        height: 48,
        sampling: { kind: "rate", framesPerSecond: 4, skipFrames: "bidir", splitsSeconds },
        videoDecoderThreads: 1,
        meterLoudness: true,
        timeoutMs: 30_000,
        onFrame: (frame, index) => {
          onFrame?.(index);
          frames[index] = Uint8Array.from(frame.data);
        },
      });
      return { ...sampled, frames };
    };

    it("gives the frames, times and loudness of one run", async () => {
      const whole = await sample([]);
      const inParts = await sample([3.333 - 0.5, 6.667 - 0.5]);
      expect(whole.frameCount).toBe(36);
      expect(inParts.frameCount).toBe(36);
      expect(inParts.frameTimesSeconds).toEqual(whole.frameTimesSeconds);
      expect(inParts.referenceErrors).toBe(0);
      // Every frame decodes exactly as in one run: each part starts at a keyframe.
      inParts.frames.forEach((frame, index) => {
        expect(Buffer.compare(frame, whole.frames[index]!), `frame ${index}`).toBe(0);
      });
      expect(inParts.loudness).toEqual(whole.loudness);
      expect(whole.loudness?.integratedLufs).toBeGreaterThan(-30);

      // Read over HTTP, as a worker reads a stored source: each part (and the first part's
      // audio) is a reader of its own. (The server breaks off nowhere here.)
      const bytes = await readFile(source);
      const { url, server } = await serveBreakingOff(bytes, bytes.length + 1);
      try {
        const overHttp = await sample([2.833, 6.167], undefined, url);
        expect(overHttp.frames.map((frame) => Buffer.from(frame).toString("base64"))).toEqual(
          whole.frames.map((frame) => Buffer.from(frame).toString("base64")),
        );
        expect(overHttp.loudness).toEqual(whole.loudness);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it("fails when a later part's ffmpeg fails, at once, and nothing reaches onFrame after", async () => {
      // An ffmpeg whose later parts (those seeking to their keyframe) fail as they start.
      const failingLaterParts = path.join(directory, "ffmpeg-later-parts-fail.sh");
      await writeFile(
        failingLaterParts,
        `#!/bin/sh\nfor arg in "$@"; do [ "$arg" = "-noaccurate_seek" ] && { echo "simulated failure" >&2; exit 1; }; done\nexec "${binaries.ffmpegPath}" "$@"\n`,
        { mode: 0o755 },
      );
      let settled = false;
      let framesAfterSettling = 0;
      let framesAnalysed = 0;
      const sampling = sampleFrames({
        ffmpegPath: failingLaterParts,
        sourcePath: source,
        startSeconds: 0.5,
        durationSeconds: 9,
        width: 64,
        height: 48,
        sampling: { kind: "rate", framesPerSecond: 4, splitsSeconds: [2.833, 6.167] },
        timeoutMs: 30_000,
        onFrame: async () => {
          if (settled) framesAfterSettling += 1;
          framesAnalysed += 1;
          // A slow analysis: part 0's frames queue up behind it.
          await new Promise((resolve) => setTimeout(resolve, 30));
        },
      }).finally(() => {
        settled = true;
      });
      await expect(sampling).rejects.toThrow(/exited with code 1: simulated failure/);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(framesAfterSettling).toBe(0);
      // The first part's 12 frames were not all analysed first: the failure stopped them.
      expect(framesAnalysed).toBeLessThan(12);
    });

    it("fails as a whole when one part's frames cannot be analysed, stopping the others", async () => {
      const failure = new Error("analysis failed on the second part");
      await expect(
        sample([2.833, 6.167], (index) => {
          if (index === 14) throw failure;
        }),
      ).rejects.toBe(failure);
      const cancelled = new AbortController();
      cancelled.abort();
      await expect(
        sampleFrames({
          ffmpegPath: binaries.ffmpegPath,
          sourcePath: source,
          startSeconds: 0,
          durationSeconds: 9,
          width: 64,
          height: 48,
          sampling: { kind: "rate", framesPerSecond: 4, splitsSeconds: [3.333, 6.667] },
          timeoutMs: 30_000,
          signal: cancelled.signal,
          onFrame: () => undefined,
        }),
      ).rejects.toThrow(/cancelled/i);
    });
  });
});
