import type { SignalCurve, TimeRange } from "@/engine/types";

/**
 * Hand-made signal curves for the analysis tests: a steady background (room tone at −35 LUFS,
 * a still picture) with stretches painted on top. The values mirror what the signal pass
 * measures on the synthetic videos, so the analysis is tested without ffmpeg in the loop.
 */
export type PaintedStretch = TimeRange & {
  /** Momentary loudness (LUFS) and RMS (dBFS, about 1 dB below) in the stretch. */
  loudnessLufs?: number;
  /** Motion, as mean frame difference (0..1). */
  motion?: number;
  /** A scene cut every this many seconds inside the stretch. */
  cutEverySeconds?: number;
  /** Speech-like audio: big 100 ms swings, energy in the voice band. */
  speech?: boolean;
  /** Digital silence. */
  silent?: boolean;
};

export function makeSignalCurve({
  durationSeconds,
  stretches = [],
  mode = "full",
  backgroundLufs = -35,
  backgroundMotion = 0.003,
}: {
  durationSeconds: number;
  stretches?: PaintedStretch[];
  mode?: SignalCurve["mode"];
  backgroundLufs?: number;
  backgroundMotion?: number;
}): SignalCurve {
  const seconds = Math.max(1, Math.ceil(durationSeconds));
  const curve: Required<SignalCurve> = {
    mode,
    durationSeconds,
    rmsDb: new Array<number>(seconds).fill(backgroundLufs - 1),
    peakDb: new Array<number>(seconds).fill(backgroundLufs + 11),
    momentaryLufs: new Array<number>(seconds).fill(backgroundLufs),
    sceneScore: new Array<number>(seconds).fill(0.01),
    motion: new Array<number>(seconds).fill(backgroundMotion),
    silences: [],
    sceneCutsSeconds: [],
    // A keyframe every 2 s, as streaming encoders place them.
    keyframesSeconds: Array.from({ length: Math.ceil(seconds / 2) }, (_, index) => index * 2),
    loudnessSwingDb: new Array<number>(seconds).fill(0.7),
    voiceBandRatioDb: new Array<number>(seconds).fill(-4),
  };
  for (const stretch of stretches) {
    const cuts: number[] = [];
    for (
      let second = Math.floor(stretch.startSeconds);
      second < Math.min(seconds, stretch.endSeconds);
      second += 1
    ) {
      if (stretch.loudnessLufs !== undefined) {
        curve.momentaryLufs[second] = stretch.loudnessLufs;
        curve.rmsDb[second] = stretch.loudnessLufs - 1;
        curve.peakDb[second] = Math.min(0, stretch.loudnessLufs + 12);
      }
      if (stretch.motion !== undefined) curve.motion[second] = stretch.motion;
      if (stretch.speech) {
        curve.loudnessSwingDb[second] = 9;
        curve.voiceBandRatioDb[second] = -0.5;
        curve.momentaryLufs[second] = stretch.loudnessLufs ?? -22;
        curve.rmsDb[second] = (stretch.loudnessLufs ?? -22) - 3;
      }
      if (stretch.silent) {
        curve.momentaryLufs[second] = -70;
        curve.rmsDb[second] = -90;
        curve.peakDb[second] = -90;
        curve.loudnessSwingDb[second] = 0;
        curve.voiceBandRatioDb[second] = -20;
      }
    }
    if (stretch.cutEverySeconds) {
      for (let time = stretch.startSeconds; time < stretch.endSeconds; time += stretch.cutEverySeconds)
        cuts.push(time);
    }
    for (const cut of cuts) {
      curve.sceneCutsSeconds.push(cut);
      const index = Math.floor(cut);
      if (index < seconds) curve.sceneScore[index] = 0.6;
    }
    if (stretch.silent)
      curve.silences.push({ startSeconds: stretch.startSeconds, endSeconds: stretch.endSeconds });
  }
  curve.sceneCutsSeconds.sort((a, b) => a - b);
  curve.silences.sort((a, b) => a.startSeconds - b.startSeconds);
  return curve;
}

/**
 * A painted event with a pause before and after and a cut at each edge — the way a real
 * scene sits in an edited video.
 */
export function bracketedEvent(event: PaintedStretch): PaintedStretch[] {
  return [
    { startSeconds: event.startSeconds - 1, endSeconds: event.startSeconds, silent: true },
    { ...event, cutEverySeconds: event.cutEverySeconds ?? event.endSeconds - event.startSeconds },
    { startSeconds: event.endSeconds, endSeconds: event.endSeconds + 1, silent: true, cutEverySeconds: 1 },
  ];
}
