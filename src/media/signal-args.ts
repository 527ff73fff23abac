import type { SignalMode } from "@/engine/types";
import { networkInputArgs, toMediaInputArg } from "./probe-args";

/**
 * One ffmpeg pass that measures everything the analysis needs, printed as filter metadata on
 * stderr (line by line, so nothing is buffered):
 *
 *  audio → 48 kHz mono → 100 ms frames ─┬─ silencedetect          (its own `silence_start/end` lines)
 *                                       ├─ astats  → RMS, peak    (`ametadata@rms`, `ametadata@peak`)
 *                                       ├─ ebur128 → momentary    (`ametadata@lufs`)
 *                                       └─ 8 kHz, high-pass 100 Hz → voice-band RMS (`ametadata@voice`)
 *  video → [10 fps] → 160×90 gray ──────┬─ scene score            (`metadata@scene`: scdet or select)
 *                                       └─ tblend difference → signalstats YAVG (`metadata@motion`)
 *
 * `fast` decodes only the video's keyframes (decoding is nearly all the cost of a pass; audio
 * is cheap and stays complete); `full` decodes every frame and samples it at 10 fps. Because
 * keyframes are seconds apart, `fast` also copies the compressed video packets, undecoded, to a
 * `framecrc` listing on stdout: a packet's size says how much changed since the frame before,
 * which stands in for motion between keyframes at no decoding cost.
 */
export type SignalArgsOptions = {
  input: string;
  mode: SignalMode;
  hasAudio: boolean;
  hasVideo: boolean;
  /** `scdet` exists from ffmpeg 5; older builds (the npm fallback) score scenes with `select`. */
  ffmpegMajorVersion: number;
  ioTimeoutMs?: number;
};

/** Labels of the metadata-printing filters; the parser reads them back from each stderr line. */
export const SIGNAL_LABELS = {
  rms: "ametadata@rms",
  peak: "ametadata@peak",
  lufs: "ametadata@lufs",
  voice: "ametadata@voice",
  scene: "metadata@scene",
  motion: "metadata@motion",
} as const;

/** Keys printed by each labelled filter. */
export const SIGNAL_KEYS = {
  rms: "lavfi.astats.Overall.RMS_level",
  peak: "lavfi.astats.Overall.Peak_level",
  lufs: "lavfi.r128.M",
  sceneScdet: "lavfi.scd.score",
  sceneSelect: "lavfi.scene_score",
  motion: "lavfi.signalstats.YAVG",
} as const;

/** Audio is cut into frames of this many seconds; per-second values aggregate ten of them. */
export const AUDIO_FRAME_SECONDS = 0.1;
const AUDIO_SAMPLE_RATE = 48_000;
/** Sampling rate of the video in `full` mode: motion is measured between frames 0.1 s apart
 * whatever the source rate, so 24, 30 and 60 fps sources give comparable values. */
export const FULL_MODE_VIDEO_FPS = 10;
/** Below this level for at least SILENCE_MIN_SECONDS a stretch counts as silence. */
export const SILENCE_NOISE_DB = -50;
export const SILENCE_MIN_SECONDS = 0.5;
/** A scene cut is a scene score at or above this (0..1 scale; scdet's 0..100 is divided by 100). */
export const SCENE_CUT_THRESHOLD = 0.2;
/** Two cuts closer than this are one cut seen on two frames. */
export const MIN_SECONDS_BETWEEN_CUTS = 0.25;

export function buildSignalArgs(options: SignalArgsOptions): string[] {
  const { input, mode, hasAudio, hasVideo, ffmpegMajorVersion, ioTimeoutMs = 20_000 } = options;
  if (!hasAudio && !hasVideo) throw new Error("A signal pass needs an audio or a video stream");

  const chains: string[] = [];
  const maps: string[] = [];
  if (hasAudio) {
    chains.push(...buildAudioSignalChains(ffmpegMajorVersion));
    maps.push("-map", "[audio]", "-map", "[voiceband]");
  }
  if (hasVideo) {
    chains.push(`[0:v:0]${buildVideoSignalChain(mode, ffmpegMajorVersion)}[video]`);
    maps.push("-map", "[video]");
  }

  return [
    "-hide_banner",
    "-nostdin",
    // Metadata is printed at `info`; `repeat` stops ffmpeg folding identical consecutive lines
    // into "Last message repeated N times", which would lose values.
    "-loglevel",
    "repeat+info",
    "-nostats",
    ...networkInputArgs(input, ioTimeoutMs),
    // Keyframes only: the decoder drops every other frame before decoding it.
    ...(mode === "fast" && hasVideo ? ["-skip_frame:v", "nokey"] : []),
    "-i",
    toMediaInputArg(input),
    "-filter_complex",
    chains.join(";"),
    ...maps,
    "-sn",
    "-dn",
    // The measurements are in the log; the frames themselves go nowhere.
    "-f",
    "null",
    "-",
    ...(mode === "fast" && hasVideo ? PACKET_LISTING_OUTPUT : []),
  ];
}

/** One line per compressed video packet (`stream, dts, pts, duration, size, crc[, F=flags]`),
 * copied without decoding. */
const PACKET_LISTING_OUTPUT = ["-map", "0:v:0", "-c:v", "copy", "-f", "framecrc", "pipe:1"];

/** The audio graph: `[0:a:0]` in, `[audio]` and `[voiceband]` out (both discarded after measuring). */
export function buildAudioSignalChains(ffmpegMajorVersion: number): string[] {
  // Newer astats can skip the per-channel and unused statistics (less work, fewer keys).
  const astatsOptions =
    ffmpegMajorVersion >= 5
      ? "metadata=1:reset=1:measure_perchannel=none:measure_overall=Peak_level+RMS_level"
      : "metadata=1:reset=1";
  const frame = [
    // A fixed rate and layout make frame sizes and loudness comparable across sources.
    `aresample=${AUDIO_SAMPLE_RATE}`,
    "aformat=sample_fmts=fltp:channel_layouts=mono",
    `asetnsamples=n=${Math.round(AUDIO_SAMPLE_RATE * AUDIO_FRAME_SECONDS)}:p=0`,
    "asplit=2[whole][forvoice]",
  ].join(",");
  const whole = [
    `silencedetect=noise=${SILENCE_NOISE_DB}dB:duration=${SILENCE_MIN_SECONDS}`,
    // reset=1: statistics of each 100 ms frame alone, not running totals.
    `astats=${astatsOptions}`,
    `${SIGNAL_LABELS.rms}=mode=print:key=${SIGNAL_KEYS.rms}`,
    `${SIGNAL_LABELS.peak}=mode=print:key=${SIGNAL_KEYS.peak}`,
    "ebur128=metadata=1",
    `${SIGNAL_LABELS.lufs}=mode=print:key=${SIGNAL_KEYS.lufs}`,
  ].join(",");
  const voice = [
    // Resampling to 8 kHz low-passes at 4 kHz for free (and makes astats 6× cheaper); the
    // high-pass removes hum and rumble: what is left is where voices carry their energy.
    "aresample=8000",
    "highpass=f=100",
    `astats=${astatsOptions}`,
    `${SIGNAL_LABELS.voice}=mode=print:key=${SIGNAL_KEYS.rms}`,
  ].join(",");
  return [`[0:a:0]${frame}`, `[whole]${whole}[audio]`, `[forvoice]${voice}[voiceband]`];
}

export function buildVideoSignalChain(mode: SignalMode, ffmpegMajorVersion: number): string {
  const sceneFilters =
    ffmpegMajorVersion >= 5
      ? // threshold=100: scdet still scores every frame but logs no cut lines of its own.
        ["scdet=threshold=100", `${SIGNAL_LABELS.scene}=mode=print:key=${SIGNAL_KEYS.sceneScdet}`]
      : // `gte`, not `gt`: keep every frame (the motion filters below need consecutive frames).
        ["select='gte(scene\\,0)'", `${SIGNAL_LABELS.scene}=mode=print:key=${SIGNAL_KEYS.sceneSelect}`];
  return [
    // In fast mode frames arrive seconds apart; resampling to a rate would only repeat them.
    ...(mode === "full" ? [`fps=${FULL_MODE_VIDEO_FPS}`] : []),
    // Statistics need no detail: 160×90 grey is ~1/150 of the pixels of 1080p.
    "scale=160:90:flags=fast_bilinear",
    "format=gray",
    ...sceneFilters,
    "tblend=all_mode=difference",
    "signalstats",
    `${SIGNAL_LABELS.motion}=mode=print:key=${SIGNAL_KEYS.motion}`,
  ].join(",");
}
