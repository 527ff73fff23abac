import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeTestVideo } from "@/engine/testing/encode-test-video";
import { resolveMediaBinaries } from "./ffmpeg-binaries";
import { grabSourceFrame } from "./grab-source-frame";
import { readMediaStdout } from "./run-ffmpeg";

const binaries = resolveMediaBinaries();
let directory: string;
/** 10 s at 1280×720: red for 5 s, then blue, a keyframe every 2 s. */
let redThenBlue: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "truss-source-frame-test-"));
  redThenBlue = path.join(directory, "red-then-blue.mp4");
  await encodeTestVideo({
    binaries,
    inputArgs: [
      ...["-f", "lavfi", "-i", "color=c=red:s=1280x720:r=30:d=5"],
      ...["-f", "lavfi", "-i", "color=c=blue:s=1280x720:r=30:d=5"],
      ...["-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0"],
    ],
    outputArgs: ["-g", "60", "-keyint_min", "60", "-sc_threshold", "0"],
    outputPath: redThenBlue,
  });
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The JPEG's size and its mean colour, decoded by ffmpeg. */
async function describeJpeg(jpeg: Buffer): Promise<{ width: number; height: number; rgb: number[] }> {
  const file = path.join(directory, `frame-${Math.random().toString(36).slice(2)}.jpg`);
  await writeFile(file, jpeg);
  const report = await readMediaStdout({
    binaryPath: binaries.ffprobePath,
    args: ["-v", "error", "-show_entries", "stream=width,height", "-of", "json", file],
    timeoutMs: 10_000,
  });
  const [stream] = (JSON.parse(report.toString()) as { streams: { width: number; height: number }[] })
    .streams;
  const pixel = await readMediaStdout({
    binaryPath: binaries.ffmpegPath,
    args: [
      "-v",
      "error",
      "-i",
      file,
      "-vf",
      "scale=1:1:flags=area",
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "pipe:1",
    ],
    timeoutMs: 10_000,
  });
  return { width: stream!.width, height: stream!.height, rgb: [...pixel] };
}

describe("grabSourceFrame", () => {
  it("takes the keyframe at or before the time asked, scaled down to 640 pixels at most", async () => {
    const grab = (atSeconds: number) =>
      grabSourceFrame({ ffmpegPath: binaries.ffmpegPath, input: redThenBlue, atSeconds, timeoutMs: 20_000 });

    const early = await describeJpeg((await grab(1))!);
    expect(early).toMatchObject({ width: 640, height: 360 });
    expect(early.rgb[0]).toBeGreaterThan(200);
    expect(early.rgb[2]).toBeLessThan(60);

    // 5.9 s is blue, but the keyframe before it (4 s) is still red: one keyframe is decoded.
    const beforeTheCut = await describeJpeg((await grab(5.9))!);
    expect(beforeTheCut.rgb[0]).toBeGreaterThan(200);

    const late = await describeJpeg((await grab(7))!);
    expect(late.rgb[2]).toBeGreaterThan(200);
    expect(late.rgb[0]).toBeLessThan(60);
  });

  it("keeps a small source's size and a portrait phone video upright", async () => {
    const small = path.join(directory, "small.mp4");
    await encodeTestVideo({
      binaries,
      inputArgs: ["-f", "lavfi", "-i", "testsrc2=s=320x180:r=30:d=2"],
      outputPath: small,
    });
    const smallFrame = await grabSourceFrame({
      ffmpegPath: binaries.ffmpegPath,
      input: small,
      atSeconds: 0.2,
      timeoutMs: 20_000,
    });
    expect(await describeJpeg(smallFrame!)).toMatchObject({ width: 320, height: 180 });

    // Stored landscape with a 90° display rotation, as phones record portrait video.
    const landscape = path.join(directory, "landscape.mp4");
    await encodeTestVideo({
      binaries,
      inputArgs: ["-f", "lavfi", "-i", "testsrc2=s=1280x720:r=30:d=2"],
      outputPath: landscape,
    });
    const rotated = path.join(directory, "rotated.mov");
    await readMediaStdout({
      binaryPath: binaries.ffmpegPath,
      args: ["-v", "error", "-i", landscape, "-c", "copy", "-metadata:s:v:0", "rotate=90", "-y", rotated],
      timeoutMs: 10_000,
    });
    const upright = await grabSourceFrame({
      ffmpegPath: binaries.ffmpegPath,
      input: rotated,
      atSeconds: 0.5,
      timeoutMs: 20_000,
    });
    expect(await describeJpeg(upright!)).toMatchObject({ width: 360, height: 640 });
  });

  it("refuses a negative time before starting ffmpeg", async () => {
    await expect(
      grabSourceFrame({
        ffmpegPath: binaries.ffmpegPath,
        input: redThenBlue,
        atSeconds: -1,
        timeoutMs: 20_000,
      }),
    ).rejects.toThrow(/Invalid frame time/);
  });
});
