import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeTestVideo } from "@/engine/testing/encode-test-video";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { sampleFrames } from "./sample-frames";

const binaries = resolveMediaBinaries();
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
});
