import { buildSegmentInputArgs } from "./cut-args";
import type { HttpHeaders } from "./probe-args";

/**
 * EBU R128 loudness normalisation targets for shorts. TikTok, Reels and Shorts play around
 * −14 LUFS; true peak stays under −1.5 dBTP so the AAC encode does not clip.
 */
export const LOUDNESS_TARGET = { integratedLufs: -14, truePeakDbtp: -1.5, loudnessRangeLu: 11 } as const;

/** What the EBU R128 meter (ffmpeg's `ebur128` filter) measured over a segment. */
export type LoudnessMeasurement = {
  integratedLufs: number;
  /** The integrated measurement's relative gating threshold. */
  thresholdLufs: number;
  loudnessRangeLu: number;
  /** −Infinity for digital silence. */
  truePeakDbtp: number;
};

/**
 * The EBU R128 meter. It runs at the source's rate (loudnorm's own first pass resamples to
 * 192 kHz and costs about twice as much); its per-100 ms lines go to the verbose level, so at
 * `info` only the summary is printed.
 */
export const LOUDNESS_METER_FILTER = "ebur128=peak=true:framelog=verbose";

/** At or below this the segment is silence (the meter's floor is −70): nothing to normalise. */
const SILENT_AT_OR_BELOW_LUFS = -69.9;

/**
 * First pass: measure the segment's loudness and true peak. Audio only, so it costs a fraction
 * of a second even for a long clip. A render that samples the segment's frames meters the audio
 * in that run instead (see sample-frames.ts).
 */
export function buildLoudnessMeasureArgs(options: {
  input: string;
  startSeconds: number;
  durationSeconds: number;
  httpHeaders?: HttpHeaders;
}) {
  return [
    "-hide_banner",
    "-nostdin",
    // The meter prints its summary at info level.
    "-v",
    "info",
    "-nostats",
    ...buildSegmentInputArgs(options),
    "-vn",
    "-sn",
    "-dn",
    "-af",
    LOUDNESS_METER_FILTER,
    "-f",
    "null",
    "-",
  ];
}

/** The summary is the last ~15 lines of the meter's output. */
const SUMMARY_LINES = 20;

/**
 * Picks the meter's summary out of an ffmpeg run's stderr, line by line (the run may print much
 * else: frame times, decoder warnings), for `parseLoudnessSummary`.
 */
export function collectLoudnessSummary() {
  const summary: string[] = [];
  return {
    addLine(line: string) {
      if (line.includes("Summary:")) summary.length = 0;
      if ((line.includes("Summary:") || summary.length > 0) && summary.length < SUMMARY_LINES)
        summary.push(line);
    },
    measurement: (): LoudnessMeasurement | null => parseLoudnessSummary(summary.join("\n")),
  };
}

/**
 * Reads the summary the meter prints when it finishes:
 *
 *     Integrated loudness:
 *       I:         -45.8 LUFS
 *       Threshold: -55.8 LUFS
 *     Loudness range:
 *       LRA:         0.0 LU
 *       …
 *     True peak:
 *       Peak:      -41.9 dBFS
 *
 * Returns null when there is no complete summary (no audio was read).
 */
export function parseLoudnessSummary(stderr: string): LoudnessMeasurement | null {
  const summary = stderr.slice(stderr.lastIndexOf("Summary:"));
  if (!stderr.includes("Summary:")) return null;
  const read = (pattern: RegExp) => {
    const value = pattern.exec(summary)?.[1];
    if (value === undefined) return Number.NaN;
    return value === "-inf" ? Number.NEGATIVE_INFINITY : Number(value);
  };
  const measurement = {
    integratedLufs: read(/Integrated loudness:\s*I:\s*(-?[\d.]+|-inf) LUFS/),
    thresholdLufs: read(/Integrated loudness:\s*I:[^\n]*\n\s*Threshold:\s*(-?[\d.]+|-inf) LUFS/),
    loudnessRangeLu: read(/LRA:\s*(-?[\d.]+) LU\b/),
    truePeakDbtp: read(/True peak:\s*Peak:\s*(-?[\d.]+|-inf) dBFS/),
  };
  return Object.values(measurement).some(Number.isNaN) ? null : measurement;
}

/**
 * The most the limiter may pull a peak down. Brief transients (a clap, a laugh into the mic)
 * limited by this much sound natural; audio that needs more would be audibly squashed, so it
 * gets less gain and ends quieter than the target instead.
 */
const MAX_LIMITING_DB = 12;
/**
 * The limiter works on sample peaks; between samples the reconstructed wave (and the AAC
 * decode) can overshoot by up to about half a decibel, so it limits that far below the
 * true-peak ceiling.
 */
const INTER_SAMPLE_HEADROOM_DB = 0.5;

/**
 * The render's audio filter. Loudness normalisation from a measurement is one constant gain to
 * the target; when that gain would push the peaks over the true-peak ceiling, a look-ahead
 * limiter (5 ms attack, 50 ms release, no make-up gain) holds them under it. This replaces
 * loudnorm's measured second pass, which in exactly this case falls back to dynamic
 * compression at 192 kHz: that took ~10% of a whole 20 s 1080×1920 render (12.9 s against 11.6 s
 * with a plain resample); volume and alimiter took nothing measurable. Without a measurement,
 * loudnorm in a single pass. Silence is left as it is. Output is 48 kHz.
 */
export function buildLoudnessFilter(measurement: LoudnessMeasurement | null): string {
  const resample = "aresample=48000";
  const { integratedLufs: targetLufs, truePeakDbtp: ceiling, loudnessRangeLu: targetRange } = LOUDNESS_TARGET;
  if (!measurement) return `loudnorm=I=${targetLufs}:TP=${ceiling}:LRA=${targetRange},${resample}`;
  const { integratedLufs, truePeakDbtp } = measurement;
  if (!(integratedLufs > SILENT_AT_OR_BELOW_LUFS)) return resample;
  const gainDb = Math.min(targetLufs - integratedLufs, ceiling + MAX_LIMITING_DB - truePeakDbtp);
  const volume = `volume=${gainDb.toFixed(2)}dB`;
  if (truePeakDbtp + gainDb <= ceiling) return `${volume},${resample}`;
  const limitLinear = 10 ** ((ceiling - INTER_SAMPLE_HEADROOM_DB) / 20);
  const limiter = `alimiter=limit=${limitLinear.toFixed(4)}:attack=5:release=50:level=0`;
  return `${volume},${limiter},${resample}`;
}
