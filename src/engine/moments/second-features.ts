import { clamp, logRamp, median, ramp } from "@/engine/curve-math";
import type { SignalCurve } from "@/engine/types";

/**
 * Per-second features on ABSOLUTE scales (0..1): fixed dB, LUFS and difference thresholds that
 * mean the same thing in every video, never ranks within one video. So a video where nothing
 * happens has low features everywhere and its best clip scores low.
 *
 * The only video-relative quantity is loudness CONTRAST — how far a second rises above the
 * video's typical (median, non-silent) loudness — and that is measured in dB, so "20 dB above
 * the rest" means the same in every video; a steady video has none.
 */
export type SecondFeatures = {
  seconds: number;
  /** Absolute momentary loudness: −40 LUFS → 0, −14 LUFS (broadcast-loud) → 1. */
  loudness: number[];
  /** Loudness above the video's median: +4 dB → 0, +20 dB → 1 (peaks count the same way). */
  loudnessContrast: number[];
  /** Audio energy: 40% absolute loudness + 60% contrast. */
  audio: number[];
  /** Motion (mean frame difference at 10 fps): 0.4% of full scale → 0, 8% → 1, log scale. */
  motion: number[];
  /** Scene cuts within the 5 s around each second: 0 → 0, 4 or more → 1. */
  cuts: number[];
  /** Visual dynamics: motion or cuts (1 − (1 − motion)(1 − cuts)). */
  visual: number[];
  /** How speech-like the audio is: syllable-rate loudness swings, energy in the voice band, audible level. */
  speech: number[];
  /** The video's median momentary loudness over non-silent seconds (LUFS), −70 if all silent. */
  medianLufs: number;
  /** The video's median RMS over non-silent seconds (dBFS), −90 if all silent. */
  medianRmsDb: number;
};

/** Loudness scale anchors (LUFS): a quiet room vs. broadcast-loud programme. */
const LOUDNESS_QUIET_LUFS = -40;
const LOUDNESS_LOUD_LUFS = -14;
/** Contrast anchors (dB above the video's median). */
const CONTRAST_NONE_DB = 4;
const CONTRAST_FULL_DB = 20;
/** Motion anchors: mean absolute frame difference 0.1 s apart, fraction of full scale. */
const MOTION_STILL = 0.004;
const MOTION_INTENSE = 0.08;
/** Cuts within the window that make a second fully "cut-heavy". */
const CUTS_FULL = 4;
const CUT_WINDOW_BEFORE_SECONDS = 2;
const CUT_WINDOW_AFTER_SECONDS = 3;
/** Seconds at or below this momentary loudness count as silent for the medians. */
const SILENT_LUFS = -60;

export function computeSecondFeatures(signals: SignalCurve): SecondFeatures {
  const seconds = Math.max(
    1,
    Math.min(
      Math.ceil(signals.durationSeconds - 1e-6),
      signals.rmsDb.length || Number.POSITIVE_INFINITY,
      signals.motion.length || Number.POSITIVE_INFINITY,
    ),
  );
  const at = (values: readonly number[], index: number, fallback: number) => values[index] ?? fallback;

  const audibleLufs = signals.momentaryLufs.slice(0, seconds).filter((value) => value > SILENT_LUFS);
  const medianLufs = median(audibleLufs) ?? -70;
  const audibleRms = signals.rmsDb
    .slice(0, seconds)
    .filter((_, index) => at(signals.momentaryLufs, index, -70) > SILENT_LUFS);
  const medianRmsDb = median(audibleRms) ?? -90;
  const audiblePeaks = signals.peakDb
    .slice(0, seconds)
    .filter((_, index) => at(signals.momentaryLufs, index, -70) > SILENT_LUFS);
  const medianPeakDb = median(audiblePeaks) ?? -90;

  const cutCounts = countCutsAround(signals.sceneCutsSeconds, seconds);
  const loudness: number[] = [];
  const loudnessContrast: number[] = [];
  const audio: number[] = [];
  const motion: number[] = [];
  const cuts: number[] = [];
  const visual: number[] = [];
  const speech: number[] = [];

  for (let index = 0; index < seconds; index += 1) {
    const lufs = at(signals.momentaryLufs, index, -70);
    const audible = lufs > SILENT_LUFS;
    const loud = ramp(lufs, LOUDNESS_QUIET_LUFS, LOUDNESS_LOUD_LUFS);
    const contrast = audible
      ? Math.max(
          ramp(lufs - medianLufs, CONTRAST_NONE_DB, CONTRAST_FULL_DB),
          ramp(at(signals.peakDb, index, -90) - medianPeakDb, CONTRAST_NONE_DB + 2, CONTRAST_FULL_DB + 2),
        )
      : 0;
    loudness.push(loud);
    loudnessContrast.push(contrast);
    audio.push(clamp(0.4 * loud + 0.6 * contrast));

    const moving = logRamp(at(signals.motion, index, 0), MOTION_STILL, MOTION_INTENSE);
    const cutHeavy = ramp(cutCounts[index] ?? 0, 0, CUTS_FULL);
    motion.push(moving);
    cuts.push(cutHeavy);
    visual.push(1 - (1 - moving) * (1 - cutHeavy));

    speech.push(speechLikelihood(signals, index, lufs));
  }

  return {
    seconds,
    loudness,
    loudnessContrast,
    audio,
    motion,
    cuts,
    visual,
    speech,
    medianLufs,
    medianRmsDb,
  };
}

/**
 * Speech without speech recognition: voices swing 5–20 dB between syllables and pauses several
 * times a second (steady noise and sustained music barely move), carry their energy between
 * ~100 Hz and 4 kHz (hiss and broadband noise do not), and sit at an audible, non-blaring level.
 * Gated noise bursts swing like syllables but fail the voice-band test.
 */
function speechLikelihood(signals: SignalCurve, index: number, lufs: number): number {
  const audible = ramp(lufs, -50, -40) * (1 - ramp(lufs, -10, -5));
  if (audible === 0) return 0;
  const swingDb = signals.loudnessSwingDb?.[index];
  const syllabic =
    swingDb !== undefined ? ramp(swingDb, 3, 8) : ramp(localSpreadDb(signals.momentaryLufs, index), 2, 6);
  const voiceRatioDb = signals.voiceBandRatioDb?.[index];
  const voiceBand = voiceRatioDb !== undefined ? ramp(voiceRatioDb, -5, -1.5) : 0.6;
  return clamp(audible * syllabic * voiceBand);
}

/** Without sub-second levels: the spread of momentary loudness over the 5 s around a second. */
function localSpreadDb(values: readonly number[], index: number): number {
  const window = values.slice(Math.max(0, index - 2), index + 3);
  if (window.length < 2) return 0;
  const average = window.reduce((sum, value) => sum + value, 0) / window.length;
  return Math.sqrt(window.reduce((sum, value) => sum + (value - average) ** 2, 0) / window.length);
}

/** Number of cuts in [second − 2, second + 3) for each second. */
function countCutsAround(cutsSeconds: readonly number[], seconds: number): number[] {
  const perSecond = new Array<number>(seconds).fill(0);
  for (const cut of cutsSeconds) {
    const index = Math.floor(cut);
    if (index >= 0 && index < seconds) perSecond[index] = (perSecond[index] ?? 0) + 1;
  }
  return perSecond.map((_, index) => {
    let count = 0;
    for (
      let other = index - CUT_WINDOW_BEFORE_SECONDS;
      other < index + CUT_WINDOW_AFTER_SECONDS;
      other += 1
    ) {
      count += perSecond[other] ?? 0;
    }
    return count;
  });
}
