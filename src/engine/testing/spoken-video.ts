import { listFfmpegFilters } from "@/engine/render/render-capabilities";
import type { TimeRange } from "@/engine/types";
import type { MediaBinaries } from "@/media/ffmpeg-binaries";
import { encodeTestVideo } from "./encode-test-video";

/**
 * A still picture over room noise with a synthesized voice in one stretch and, as the control,
 * a chord whose loudness pulses 4 times a second (a syllable's rate) in another: real speech
 * for the speech signal to hear, next to the kind of sound that only looks like it.
 */
export type SpokenVideo = {
  path: string;
  durationSeconds: number;
  speech: TimeRange;
  pulsingChord: TimeRange;
};

const DURATION_SECONDS = 70;
const SPEECH_START_SECONDS = 10;
/** flite's `slt` voice speaks these words in about 12.6 s. */
const WORDS =
  "Welcome back everyone. Today we are going to look at the best moments from last night. " +
  "I could not believe what happened in the final round. Let me tell you, it was absolutely " +
  "incredible, and the chat went completely wild.";
const SPOKEN_SECONDS = 12.6;
const CHORD: TimeRange = { startSeconds: 40, endSeconds: 60 };

/**
 * Whether this ffmpeg can speak: Debian's build has the `flite` source (libflite); the npm
 * fallback build does not.
 */
export async function canSynthesizeSpeech(binaries: Pick<MediaBinaries, "ffmpegPath">): Promise<boolean> {
  return (await listFfmpegFilters(binaries.ffmpegPath)).has("flite");
}

export async function generateSpokenVideo(options: {
  binaries: Pick<MediaBinaries, "ffmpegPath">;
  outputPath: string;
}): Promise<SpokenVideo> {
  const chordSeconds = CHORD.endSeconds - CHORD.startSeconds;
  const sine = (frequency: number) =>
    `sine=frequency=${frequency}:duration=${chordSeconds}:sample_rate=48000`;
  const delayed = (seconds: number) => `adelay=${seconds * 1000}:all=1,apad=whole_dur=${DURATION_SECONDS}`;
  await encodeTestVideo({
    binaries: options.binaries,
    inputArgs: [
      ...["-f", "lavfi", "-i", `color=c=0x335577:s=320x180:r=30:d=${DURATION_SECONDS}`],
      ...[
        "-f",
        "lavfi",
        "-i",
        `anoisesrc=color=pink:amplitude=0.02:duration=${DURATION_SECONDS}:sample_rate=48000`,
      ],
      ...["-f", "lavfi", "-i", `flite=text='${WORDS}':voice=slt`],
      // A major triad, its level swinging 90% four times a second.
      ...["-f", "lavfi", "-i", sine(220), "-f", "lavfi", "-i", sine(277), "-f", "lavfi", "-i", sine(330)],
      "-filter_complex",
      [
        `[2:a]aresample=48000,${delayed(SPEECH_START_SECONDS)}[voice]`,
        `[3:a][4:a][5:a]amix=inputs=3,tremolo=f=4:d=0.9,volume=3,${delayed(CHORD.startSeconds)}[chord]`,
        `[1:a][voice][chord]amix=inputs=3:normalize=0,atrim=0:${DURATION_SECONDS}[sound]`,
      ].join(";"),
      ...["-map", "0:v", "-map", "[sound]"],
    ],
    outputArgs: ["-c:a", "aac", "-b:a", "96k", "-shortest"],
    outputPath: options.outputPath,
  });
  return {
    path: options.outputPath,
    durationSeconds: DURATION_SECONDS,
    speech: { startSeconds: SPEECH_START_SECONDS, endSeconds: SPEECH_START_SECONDS + SPOKEN_SECONDS },
    pulsingChord: CHORD,
  };
}
