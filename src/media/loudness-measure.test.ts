import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveMediaBinaries } from "./ffmpeg-binaries";
import { measureLoudness } from "./loudness-measure";
import { runMedia } from "./run-ffmpeg";

const { ffmpegPath } = resolveMediaBinaries();
let directory: string;

async function tone(name: string, source: string): Promise<string> {
  const file = path.join(directory, name);
  await runMedia({
    binaryPath: ffmpegPath,
    args: ["-v", "error", "-f", "lavfi", "-i", source, file],
    timeoutMs: 20_000,
  });
  return file;
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "truss-loudness-test-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe("measureLoudness", () => {
  it("measures a segment's integrated loudness and true peak", async () => {
    // 1 kHz sine, peak at −20 dBFS, for 2 s, between two louder seconds the segment leaves out.
    const file = await tone(
      "tone.wav",
      "aevalsrc='if(between(t,1,3),0.1,0.9)*sin(2*PI*1000*t)':sample_rate=48000:duration=4",
    );
    const measurement = await measureLoudness({
      ffmpegPath,
      input: file,
      startSeconds: 1.2,
      durationSeconds: 1.6,
      timeoutMs: 20_000,
    });
    expect(measurement?.truePeakDbtp).toBeCloseTo(-20, 0);
    // A full-scale 1 kHz sine measures about −3 LUFS in mono; 20 dB down, about −23.
    expect(measurement?.integratedLufs).toBeGreaterThan(-25);
    expect(measurement?.integratedLufs).toBeLessThan(-21);
  });

  it("reports digital silence as the meter's floor", async () => {
    const file = await tone("silence.wav", "anullsrc=sample_rate=48000:channel_layout=mono:duration=2");
    const measurement = await measureLoudness({
      ffmpegPath,
      input: file,
      startSeconds: 0,
      durationSeconds: 2,
      timeoutMs: 20_000,
    });
    expect(measurement).toMatchObject({ integratedLufs: -70, truePeakDbtp: Number.NEGATIVE_INFINITY });
  });
});
