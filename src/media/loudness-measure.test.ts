import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveMediaBinaries } from "./ffmpeg-binaries";
import { buildLoudnessFilter, LOUDNESS_TARGET } from "./loudness-args";
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

  it("normalises peaky audio to the target without crossing the true-peak ceiling", async () => {
    // A 300 Hz tone at −20 dBFS (≈ −23 LUFS) with a 3 ms full-scale click every second: +9 dB of gain
    // would put the clicks far over the ceiling, so the filter has to limit them.
    const file = await tone(
      "peaky.wav",
      "aevalsrc='if(lt(mod(t,1),0.003),0.95,0.1)*sin(2*PI*300*t)':sample_rate=48000:duration=8",
    );
    const segment = { ffmpegPath, startSeconds: 0, durationSeconds: 8, timeoutMs: 20_000 };
    const before = await measureLoudness({ ...segment, input: file });
    const filter = buildLoudnessFilter(before);
    expect(filter).toContain("alimiter");
    const normalised = path.join(directory, "normalised.wav");
    await runMedia({
      binaryPath: ffmpegPath,
      // Float samples, so only the filter can keep the peaks down (16-bit output would clip them).
      args: ["-v", "error", "-i", file, "-af", filter, "-c:a", "pcm_f32le", normalised],
      timeoutMs: 20_000,
    });
    const after = await measureLoudness({ ...segment, input: normalised });
    expect(after!.truePeakDbtp).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeakDbtp + 0.2);
    // Limiting takes some energy out of the clicks: about 1 LU here, where they are a tenth of
    // the signal's energy; speech with the odd transient loses far less.
    expect(Math.abs(after!.integratedLufs - LOUDNESS_TARGET.integratedLufs)).toBeLessThan(1.5);
  });
});
