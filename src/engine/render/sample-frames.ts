import type { RgbFrame } from "@/engine/faces/face-detector";
import { buildSegmentInputArgs } from "@/media/cut-args";
import { runMedia } from "@/media/run-ffmpeg";

export type SampleFramesOptions = {
  ffmpegPath: string;
  sourcePath: string;
  startSeconds: number;
  durationSeconds: number;
  /** Analysis frame size; the source is scaled to exactly this. */
  width: number;
  height: number;
  framesPerSecond: number;
  /** Skip decoding B-frames (see buildSegmentInputArgs); only for H.264 sources. */
  skipBidirectionalFrames?: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called in order for each frame; may be async (the next frames keep decoding meanwhile). */
  onFrame: (frame: RgbFrame, timeSeconds: number) => Promise<void> | void;
};

/**
 * Frames waiting for `onFrame` while ffmpeg decodes ahead: decoding (ffmpeg, one core) and
 * analysis (face detection, the other core) overlap, yet memory stays bounded (a 256×144 frame
 * is 110 KB).
 */
const MAX_QUEUED_FRAMES = 24;

export function buildFrameSampleArgs(
  options: Omit<SampleFramesOptions, "onFrame" | "timeoutMs" | "signal" | "ffmpegPath">,
) {
  const {
    sourcePath,
    startSeconds,
    durationSeconds,
    width,
    height,
    framesPerSecond,
    skipBidirectionalFrames,
  } = options;
  return [
    "-hide_banner",
    "-nostdin",
    "-v",
    "error",
    ...buildSegmentInputArgs({
      input: sourcePath,
      startSeconds,
      durationSeconds,
      fastDecode: true,
      skipBidirectionalFrames,
    }),
    "-an",
    "-sn",
    "-dn",
    "-vf",
    // `fps` before `scale`: only the kept frames are scaled. Area averaging keeps small moving
    // things visible at 1/8 size instead of aliasing them away.
    `fps=${framesPerSecond},scale=${width}:${height}:flags=area,format=rgb24`,
    "-f",
    "rawvideo",
    "pipe:1",
  ];
}

/**
 * What the H.264/HEVC decoders say when a frame refers to a picture they do not have. Not
 * "mmco: unref short failure": with B-frames skipped, x264's B-pyramid makes the decoder log
 * that for the skipped reference B-frames, while every I and P frame still decodes bit-exact
 * (checked with framemd5 against a full decode).
 */
const MISSING_REFERENCE = /reference|co located POCs unavailable|decode_slice_header error|concealing/i;

export type SampledFrames = {
  frameCount: number;
  /** Decoder complaints about missing reference pictures: the frames may be corrupt. */
  referenceErrors: number;
};

/**
 * Decodes a segment at a low frame rate into small RGB frames, streamed from ffmpeg's stdout
 * (nothing is written to disk or held beyond a short queue).
 */
export async function sampleFrames(options: SampleFramesOptions): Promise<SampledFrames> {
  const { ffmpegPath, width, height, framesPerSecond, timeoutMs, signal, onFrame } = options;
  const frameBytes = width * height * 3;
  let frameCount = 0;
  let referenceErrors = 0;

  await runMedia({
    binaryPath: ffmpegPath,
    args: buildFrameSampleArgs(options),
    timeoutMs,
    signal,
    onStderrLine: (line) => {
      if (MISSING_REFERENCE.test(line)) referenceErrors += 1;
    },
    consumeStdout: async (stdout) => {
      let buffer = Buffer.allocUnsafe(frameBytes);
      let filled = 0;
      let queued = 0;
      let chain: Promise<void> = Promise.resolve();
      let failure: { error: unknown } | undefined;
      for await (const chunk of stdout as AsyncIterable<Buffer>) {
        let offset = 0;
        while (offset < chunk.length) {
          const copied = chunk.copy(
            buffer,
            filled,
            offset,
            Math.min(chunk.length, offset + frameBytes - filled),
          );
          filled += copied;
          offset += copied;
          if (filled < frameBytes) continue;
          const frame: RgbFrame = {
            width,
            height,
            data: new Uint8Array(buffer.buffer, buffer.byteOffset, frameBytes),
          };
          const timeSeconds = frameCount / framesPerSecond;
          frameCount += 1;
          queued += 1;
          chain = chain.then(async () => {
            await onFrame(frame, timeSeconds);
            queued -= 1;
          });
          chain.catch((error: unknown) => {
            failure ??= { error };
          });
          buffer = Buffer.allocUnsafe(frameBytes);
          filled = 0;
        }
        // Surface an analysis error promptly (runMedia then stops ffmpeg), and stop reading
        // while the queue is full.
        if (failure) throw failure.error;
        if (queued >= MAX_QUEUED_FRAMES) await chain;
      }
      await chain;
    },
  });
  return { frameCount, referenceErrors };
}
