import { describe, expect, it } from "vitest";
import {
  buildLoudnessFilter,
  buildLoudnessMeasureArgs,
  collectLoudnessSummary,
  LOUDNESS_TARGET,
  type LoudnessMeasurement,
  parseLoudnessSummary,
} from "./loudness-args";

// As ffmpeg 5.1 and the 2018 npm build both print it, after a per-frame line (verbose level).
const SUMMARY = `[Parsed_ebur128_0 @ 0x3530c480] t: 3.9 TARGET:-23 LUFS M: -45.8 S: -45.8 I: -45.8 LUFS
[Parsed_ebur128_0 @ 0x562465ba91c0] Summary:

  Integrated loudness:
    I:         -45.8 LUFS
    Threshold: -55.8 LUFS

  Loudness range:
    LRA:         3.2 LU
    Threshold: -65.8 LUFS
    LRA low:   -45.8 LUFS
    LRA high:  -45.8 LUFS

  True peak:
    Peak:      -41.9 dBFS`;

const SILENCE = `[Parsed_ebur128_0 @ 0x1] Summary:

  Integrated loudness:
    I:         -70.0 LUFS
    Threshold:   0.0 LUFS

  Loudness range:
    LRA:         0.0 LU
    Threshold:   0.0 LUFS
    LRA low:     0.0 LUFS
    LRA high:    0.0 LUFS

  True peak:
    Peak:       -inf dBFS`;

describe("loudness arguments", () => {
  it("meters the segment's audio only", () => {
    const args = buildLoudnessMeasureArgs({ input: "/v.mp4", startSeconds: 3, durationSeconds: 20 });
    expect(args).toContain("-vn");
    expect(args.join(" ")).toContain("-ss 3.000 -t 20.000 -i file:/v.mp4");
    expect(args[args.indexOf("-af") + 1]).toBe("ebur128=peak=true:framelog=verbose");
    expect(args.slice(-3)).toEqual(["-f", "null", "-"]);
  });

  it("picks the summary out of a run's other stderr lines", () => {
    const collector = collectLoudnessSummary();
    for (const line of [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'file:/v.mp4':",
      "[Parsed_showinfo_3 @ 0x1] n:   0 pts:  25600 pts_time:1.66667 pos: 1103718 fmt:rgb24",
      ...SUMMARY.split("\n"),
      "[h264 @ 0x2] co located POCs unavailable",
    ]) {
      collector.addLine(line);
    }
    expect(collector.measurement()).toEqual(parseLoudnessSummary(SUMMARY));
    expect(collectLoudnessSummary().measurement()).toBeNull();
  });

  it("parses the meter's summary, including silence", () => {
    expect(parseLoudnessSummary(SUMMARY)).toEqual({
      integratedLufs: -45.8,
      thresholdLufs: -55.8,
      loudnessRangeLu: 3.2,
      truePeakDbtp: -41.9,
    });
    expect(parseLoudnessSummary(SILENCE)).toEqual({
      integratedLufs: -70,
      thresholdLufs: 0,
      loudnessRangeLu: 0,
      truePeakDbtp: Number.NEGATIVE_INFINITY,
    });
    expect(parseLoudnessSummary("no summary here")).toBeNull();
    expect(parseLoudnessSummary(SUMMARY.split("True peak")[0]!)).toBeNull();
  });

  it("applies one gain to the target when the true peak allows it", () => {
    const measurement = parseLoudnessSummary(SUMMARY)!;
    expect(buildLoudnessFilter(measurement)).toBe("volume=31.80dB,aresample=48000");
    const gain = LOUDNESS_TARGET.integratedLufs - measurement.integratedLufs;
    expect(measurement.truePeakDbtp + gain).toBeLessThanOrEqual(LOUDNESS_TARGET.truePeakDbtp);
  });

  it("limits the peaks of peaky audio, gives up gain beyond 12 dB of limiting, and normalises unmeasured audio in one pass", () => {
    const peaky: LoudnessMeasurement = {
      integratedLufs: -24,
      thresholdLufs: -34,
      loudnessRangeLu: 12,
      truePeakDbtp: -3,
    };
    // +10 dB would put the peaks at +7 dBTP: the limiter holds them at −2 dBFS (0.7943).
    expect(buildLoudnessFilter(peaky)).toBe(
      "volume=10.00dB,alimiter=limit=0.7943:attack=5:release=50:level=0,aresample=48000",
    );
    // A quiet segment with one full-scale spike: +30 dB would need 31.5 dB of limiting.
    const spiky: LoudnessMeasurement = { ...peaky, integratedLufs: -44, truePeakDbtp: 0 };
    expect(buildLoudnessFilter(spiky)).toMatch(/^volume=10\.50dB,alimiter=/);
    expect(buildLoudnessFilter(null)).toBe("loudnorm=I=-14:TP=-1.5:LRA=11,aresample=48000");
  });

  it("leaves silence alone", () => {
    expect(buildLoudnessFilter(parseLoudnessSummary(SILENCE))).toBe("aresample=48000");
  });
});
