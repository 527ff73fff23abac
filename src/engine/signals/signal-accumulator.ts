import { median } from "@/engine/curve-math";
import type { SignalCurve, SignalMode, TimeRange } from "@/engine/types";
import {
  AUDIO_FRAME_SECONDS,
  MIN_SECONDS_BETWEEN_CUTS,
  SCENE_CUT_THRESHOLD,
  SIGNAL_KEYS,
  SIGNAL_LABELS,
} from "@/media/signal-args";
import { createPacketCutDetector, mergePacketCuts } from "./packet-cuts";

/**
 * Turns the stderr lines of the signal pass (see `buildSignalArgs`) into a `SignalCurve`, one
 * line at a time: per-second sums and maxima only, so memory grows with the video's length in
 * seconds, never with its frames. Pure apart from its own state; the tests feed it lines.
 */
export const RMS_FLOOR_DB = -90;
export const LUFS_FLOOR = -70;
/** Quieter than this a 100 ms frame counts as a pause: its exact level says nothing more. */
const SWING_FLOOR_DB = -60;
/** The lowest voice-band ratio reported (and the value for silent seconds). */
const VOICE_RATIO_FLOOR_DB = -20;

type Label = keyof typeof SIGNAL_LABELS;

const LINE = /^\[([a-z]+@[a-z]+) @ 0x[0-9a-f]+\] (.*)$/;
const FRAME = /^frame:\d+\s+pts:\S+\s+pts_time:(\S+)/;
const SILENCE_START = /silence_start: (-?[\d.e+-]+)/;
const SILENCE_END = /silence_end: (-?[\d.e+-]+)/;
const LABEL_BY_FILTER = new Map<string, Label>(
  (Object.entries(SIGNAL_LABELS) as [Label, string][]).map(([label, filter]) => [filter, label]),
);

export type SignalAccumulator = {
  /** A line of ffmpeg's stderr (filter metadata, silencedetect). */
  pushLine(line: string): void;
  /** A line of the `framecrc` packet listing on stdout (fast mode). */
  pushPacketLine(line: string): void;
  /** Latest media time seen (seconds), for progress. */
  readonly latestSeconds: number;
  /** Whether any measurement arrived at all (a pass that decoded nothing says nothing). */
  readonly hasMeasurements: boolean;
  finish(): SignalCurve;
};

export function createSignalAccumulator({
  mode,
  durationSeconds,
  hasAudio,
  sceneScoreScale,
}: {
  mode: SignalMode;
  durationSeconds: number;
  hasAudio: boolean;
  /** What divides the printed scene score to give 0..1 (100 for scdet, 1 for select). */
  sceneScoreScale: number;
}): SignalAccumulator {
  const seconds = Math.max(1, Math.ceil(durationSeconds - 1e-6));
  const rmsPowerSum = new Float64Array(seconds);
  const rmsFrames = new Uint16Array(seconds);
  /** Sum and sum of squares of the 100 ms levels (floored at SWING_FLOOR_DB), for their spread. */
  const levelSum = new Float64Array(seconds);
  const levelSquareSum = new Float64Array(seconds);
  const voicePowerSum = new Float64Array(seconds);
  const voiceFrames = new Uint16Array(seconds);
  const peakDb = new Array<number>(seconds).fill(RMS_FLOOR_DB);
  const momentaryLufs = new Array<number>(seconds).fill(LUFS_FLOOR);
  const sceneScore = new Array<number>(seconds).fill(0);
  const motionSum = new Float64Array(seconds);
  const motionFrames = new Uint16Array(seconds);
  /** Fast mode: each keyframe's difference to the previous one, spread over the gap between them. */
  const keyframeMotion: { atSeconds: number; value: number }[] = [];
  /** Fast mode: bytes and count of inter-coded (non-key) video packets, and key packets, per second. */
  const interFrameBytes = new Float64Array(seconds);
  const interFrameCount = new Uint16Array(seconds);
  const keyFrameCount = new Uint16Array(seconds);
  const keyframesSeconds: number[] = [];
  const packetCuts = createPacketCutDetector();
  let packetTimeBase: number | undefined;
  let packetCount = 0;
  const sceneCutsSeconds: number[] = [];
  const silences: TimeRange[] = [];
  let openSilenceStart: number | undefined;
  const frameTime = new Map<Label, number>();
  let latestAudioSeconds = 0;
  let latestVideoSeconds = 0;
  let measurements = 0;

  const secondIndex = (time: number) => Math.min(seconds - 1, Math.max(0, Math.floor(time)));

  function pushValue(label: Label, time: number, key: string, raw: string) {
    const value = raw === "-inf" ? Number.NEGATIVE_INFINITY : Number(raw);
    if (Number.isNaN(value)) return;
    const index = secondIndex(time);
    measurements += 1;
    switch (label) {
      case "rms":
        if (key !== SIGNAL_KEYS.rms) return;
        rmsPowerSum[index] = (rmsPowerSum[index] ?? 0) + 10 ** (Math.max(RMS_FLOOR_DB, value) / 10);
        rmsFrames[index] = (rmsFrames[index] ?? 0) + 1;
        {
          const level = Math.max(SWING_FLOOR_DB, value);
          levelSum[index] = (levelSum[index] ?? 0) + level;
          levelSquareSum[index] = (levelSquareSum[index] ?? 0) + level * level;
        }
        latestAudioSeconds = Math.max(latestAudioSeconds, time + AUDIO_FRAME_SECONDS);
        return;
      case "voice":
        if (key !== SIGNAL_KEYS.rms) return;
        voicePowerSum[index] = (voicePowerSum[index] ?? 0) + 10 ** (Math.max(RMS_FLOOR_DB, value) / 10);
        voiceFrames[index] = (voiceFrames[index] ?? 0) + 1;
        return;
      case "peak":
        if (key !== SIGNAL_KEYS.peak) return;
        peakDb[index] = Math.max(peakDb[index] ?? RMS_FLOOR_DB, Math.max(RMS_FLOOR_DB, value));
        return;
      case "lufs":
        if (key !== SIGNAL_KEYS.lufs) return;
        momentaryLufs[index] = Math.max(momentaryLufs[index] ?? LUFS_FLOOR, Math.max(LUFS_FLOOR, value));
        return;
      case "scene": {
        if (key !== SIGNAL_KEYS.sceneScdet && key !== SIGNAL_KEYS.sceneSelect) return;
        const score = Math.min(1, Math.max(0, value / sceneScoreScale));
        sceneScore[index] = Math.max(sceneScore[index] ?? 0, score);
        latestVideoSeconds = Math.max(latestVideoSeconds, time);
        const lastCut = sceneCutsSeconds.at(-1);
        // The first frame has nothing to differ from; a score there is not a cut.
        if (score >= SCENE_CUT_THRESHOLD && time > 0) {
          if (lastCut === undefined || time - lastCut >= MIN_SECONDS_BETWEEN_CUTS)
            sceneCutsSeconds.push(time);
        }
        return;
      }
      case "motion": {
        if (key !== SIGNAL_KEYS.motion) return;
        const difference = Math.min(1, Math.max(0, value / 255));
        latestVideoSeconds = Math.max(latestVideoSeconds, time);
        if (mode === "fast") keyframeMotion.push({ atSeconds: time, value: difference });
        else {
          motionSum[index] = (motionSum[index] ?? 0) + difference;
          motionFrames[index] = (motionFrames[index] ?? 0) + 1;
        }
        return;
      }
    }
  }

  /**
   * Keyframes are big whatever happens (a fresh full picture), so they are left out; a second
   * that held one is scaled up as if its other frames had filled it. A second with no inter
   * frames (all-intra video, a montage of cuts) is unknown (NaN).
   */
  function interFrameBytesPerSecond(): number[] {
    return Array.from(interFrameBytes, (bytes, index) => {
      const inter = interFrameCount[index] ?? 0;
      const key = keyFrameCount[index] ?? 0;
      if (inter === 0) return key > 0 ? Number.NaN : 0;
      return (bytes * (inter + key)) / inter;
    });
  }

  return {
    get latestSeconds() {
      return Math.max(latestAudioSeconds, latestVideoSeconds);
    },

    get hasMeasurements() {
      return measurements > 0;
    },

    pushPacketLine(line: string) {
      if (line.startsWith("#")) {
        const timeBase = /^#tb 0: (\d+)\/(\d+)/.exec(line);
        if (timeBase) packetTimeBase = Number(timeBase[1]) / Number(timeBase[2]);
        return;
      }
      if (packetTimeBase === undefined) return;
      const fields = line.split(",").map((field) => field.trim());
      const [, dts, pts, , size] = fields;
      // After the CRC: `F=0x…` (flags) and `S=n, …` (side data, which MPEG-TS packets carry).
      const flags = fields.slice(6).find((field) => field.startsWith("F="));
      const timestamp = Number(pts !== undefined && !pts.startsWith("-9223372036854775808") ? pts : dts);
      const bytes = Number(size);
      if (!Number.isFinite(timestamp) || !Number.isFinite(bytes)) return;
      packetCount += 1;
      const timeSeconds = timestamp * packetTimeBase;
      const index = secondIndex(timeSeconds);
      // framecrc prints `F=` only when the flags are not exactly "key"; bit 0 is the key flag.
      const isKey = flags === undefined || (Number.parseInt(flags.slice(2), 16) & 1) === 1;
      if (isKey) {
        keyFrameCount[index] = (keyFrameCount[index] ?? 0) + 1;
        keyframesSeconds.push(timeSeconds);
        packetCuts.pushKey(timeSeconds, bytes);
      } else {
        interFrameBytes[index] = (interFrameBytes[index] ?? 0) + bytes;
        interFrameCount[index] = (interFrameCount[index] ?? 0) + 1;
        packetCuts.pushInter(timeSeconds, bytes);
      }
    },

    pushLine(line: string) {
      const silenceStart = SILENCE_START.exec(line);
      if (silenceStart) {
        openSilenceStart = Math.max(0, Number(silenceStart[1]));
        return;
      }
      const silenceEnd = SILENCE_END.exec(line);
      if (silenceEnd) {
        const endSeconds = Number(silenceEnd[1]);
        if (openSilenceStart !== undefined && endSeconds > openSilenceStart) {
          silences.push({ startSeconds: openSilenceStart, endSeconds });
        }
        openSilenceStart = undefined;
        return;
      }
      const match = LINE.exec(line);
      if (!match) return;
      const label = LABEL_BY_FILTER.get(match[1] ?? "");
      const body = match[2] ?? "";
      if (!label) return;
      const frame = FRAME.exec(body);
      if (frame) {
        const time = Number(frame[1]);
        if (Number.isFinite(time)) frameTime.set(label, time);
        return;
      }
      const equals = body.indexOf("=");
      const time = frameTime.get(label);
      if (equals < 0 || time === undefined) return;
      pushValue(label, time, body.slice(0, equals), body.slice(equals + 1).trim());
    },

    finish(): SignalCurve {
      // A decode that stopped well short of the stated duration (a truncated or damaged file)
      // shortens the usable video: clips must not be placed where there is nothing to show.
      // Fast mode sees video only at keyframes, so only audio (or full-mode video) can tell.
      const decodedSeconds = hasAudio ? latestAudioSeconds : mode === "full" ? latestVideoSeconds + 0.1 : 0;
      const usableSeconds =
        decodedSeconds > 0 && decodedSeconds < durationSeconds - 2 ? decodedSeconds : durationSeconds;
      const usableLength = Math.max(1, Math.min(seconds, Math.ceil(usableSeconds - 1e-6)));

      if (openSilenceStart !== undefined && openSilenceStart < usableSeconds) {
        silences.push({ startSeconds: openSilenceStart, endSeconds: usableSeconds });
      }

      const rmsDb = Array.from(rmsPowerSum, (power, index) => {
        const frames = rmsFrames[index] ?? 0;
        if (frames === 0 || power <= 0) return RMS_FLOOR_DB;
        return round(Math.max(RMS_FLOOR_DB, 10 * Math.log10(power / frames)), 2);
      });
      const loudnessSwingDb = Array.from(levelSum, (sum, index) => {
        const frames = rmsFrames[index] ?? 0;
        if (frames < 2) return 0;
        const mean = sum / frames;
        const variance = Math.max(0, (levelSquareSum[index] ?? 0) / frames - mean * mean);
        return round(Math.sqrt(variance), 2);
      });
      const voiceBandRatioDb = Array.from(voicePowerSum, (power, index) => {
        const frames = voiceFrames[index] ?? 0;
        const whole = rmsDb[index] ?? RMS_FLOOR_DB;
        // In near-silence the ratio is noise; call it neutral-low rather than guess.
        if (frames === 0 || power <= 0 || whole <= SWING_FLOOR_DB) return VOICE_RATIO_FLOOR_DB;
        const voice = 10 * Math.log10(power / frames);
        return round(Math.min(0, Math.max(VOICE_RATIO_FLOOR_DB, voice - whole)), 2);
      });
      // Packets come in decoding order: a keyframe's presentation time sorts it.
      const sortedKeyframesSeconds = [...keyframesSeconds].sort((a, b) => a - b);
      const cuts =
        mode === "fast" && packetCount > 0
          ? mergePacketCuts({
              keyframeCutsSeconds: sceneCutsSeconds,
              packetCutsSeconds: packetCuts.finish(),
              keyframesSeconds: sortedKeyframesSeconds,
              sceneScore,
            })
          : { sceneCutsSeconds, sceneScore };

      // A pair of keyframes with a cut between them measures the cut, not motion: with keyframes
      // seconds apart and few of them, such pairs would set the motion level of the whole video.
      const pairsWithoutCut = keyframeMotion.filter((point, index) => {
        const previousSeconds = keyframeMotion[index - 1]?.atSeconds ?? Number.NEGATIVE_INFINITY;
        return !cuts.sceneCutsSeconds.some((cut) => cut > previousSeconds && cut <= point.atSeconds + 1e-6);
      });
      const motion =
        mode === "fast"
          ? estimateFastModeMotion({
              keyframeMotion: spreadKeyframeMotion(keyframeMotion, seconds),
              levelKeyframeMotion:
                pairsWithoutCut.length > 0 ? spreadKeyframeMotion(pairsWithoutCut, seconds) : undefined,
              bytesPerSecond: packetCount > 0 ? interFrameBytesPerSecond().slice(0, usableLength) : [],
              seconds,
            })
          : Array.from(motionSum, (sum, index) => {
              const frames = motionFrames[index] ?? 0;
              return frames === 0 ? 0 : round(sum / frames, 5);
            });

      const trim = <T>(values: T[]) => values.slice(0, usableLength);
      return {
        mode,
        durationSeconds: round(usableSeconds, 3),
        rmsDb: trim(rmsDb),
        peakDb: trim(peakDb.map((value) => round(value, 2))),
        momentaryLufs: trim(momentaryLufs.map((value) => round(value, 2))),
        sceneScore: trim(cuts.sceneScore.map((value) => round(value, 4))),
        motion: trim(motion),
        silences: silences
          .filter((silence) => silence.startSeconds < usableSeconds)
          .map((silence) => ({
            startSeconds: round(silence.startSeconds, 3),
            endSeconds: round(Math.min(usableSeconds, silence.endSeconds), 3),
          })),
        sceneCutsSeconds: cuts.sceneCutsSeconds
          .filter((time) => time < usableSeconds)
          .map((time) => round(time, 3)),
        ...(packetCount > 0
          ? {
              keyframesSeconds: sortedKeyframesSeconds
                .filter((time) => time < usableSeconds)
                .map((time) => round(time, 3)),
            }
          : {}),
        ...(hasAudio
          ? { loudnessSwingDb: trim(loudnessSwingDb), voiceBandRatioDb: trim(voiceBandRatioDb) }
          : {}),
      };
    },
  };
}

/**
 * In fast mode the difference between consecutive keyframes stands for the motion of every
 * second between them (the change happened somewhere in that gap). Seconds before the first
 * keyframe difference take the first value.
 */
export function spreadKeyframeMotion(
  points: { atSeconds: number; value: number }[],
  seconds: number,
): number[] {
  const motion = new Array<number>(seconds).fill(0);
  if (points.length === 0) return motion;
  let pointIndex = 0;
  for (let second = 0; second < seconds; second += 1) {
    const middle = second + 0.5;
    // The first keyframe at or after the middle of this second closes the gap that holds it.
    while (pointIndex < points.length - 1 && (points[pointIndex]?.atSeconds ?? 0) < middle) pointIndex += 1;
    motion[second] = round(points[pointIndex]?.value ?? 0, 5);
  }
  return motion;
}

/** How much larger a difference between keyframes seconds apart typically is than the mean
 * difference between frames 0.1 s apart (measured on the synthetic and benchmark videos). */
export const KEYFRAME_DIFFERENCE_PER_MOTION = 10;

/**
 * Fast mode sees the picture only at keyframes, so motion is estimated: its LEVEL from the
 * video's typical difference between keyframes (an absolute measure, so a static video stays
 * low), its VARIATION over time from the bytes the encoder spent on inter frames in each
 * second relative to the video's median second (change costs bits), or — where that is
 * unknown (no packet listing, all-intra seconds) — from the keyframe differences themselves.
 */
export function estimateFastModeMotion({
  keyframeMotion,
  levelKeyframeMotion = keyframeMotion,
  bytesPerSecond,
  seconds,
}: {
  keyframeMotion: number[];
  /** The keyframe differences the level is taken from (those without a cut between them). */
  levelKeyframeMotion?: number[];
  bytesPerSecond: number[];
  seconds: number;
}): number[] {
  const typicalKeyframeDifference = median(levelKeyframeMotion.filter((value) => value > 0));
  if (typicalKeyframeDifference === undefined) return new Array<number>(seconds).fill(0);
  const level = Math.min(0.05, Math.max(0.002, typicalKeyframeDifference / KEYFRAME_DIFFERENCE_PER_MOTION));
  const typicalBytes = median(bytesPerSecond.filter((value) => value > 0));
  return Array.from({ length: seconds }, (_, second) => {
    const bytes = bytesPerSecond[second];
    const relativeChange =
      typicalBytes !== undefined && bytes !== undefined && !Number.isNaN(bytes)
        ? bytes / typicalBytes
        : (keyframeMotion[second] ?? 0) / typicalKeyframeDifference;
    return round(Math.min(1, level * relativeChange), 5);
  });
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
