import type { RgbFrame } from "@/engine/faces/face-detector";
import { buildSegmentInputArgs, type SkippedFrames } from "@/media/cut-args";
import {
  collectLoudnessSummary,
  LOUDNESS_METER_FILTER,
  type LoudnessMeasurement,
} from "@/media/loudness-args";
import type { HttpHeaders } from "@/media/probe-args";
import { runMedia } from "@/media/run-ffmpeg";
import type { FrameRegion } from "@/media/vertical-crop-args";

export type SampleFramesOptions = {
  ffmpegPath: string;
  sourcePath: string;
  /** Sent with every request when `sourcePath` is a URL (see buildSegmentInputArgs). */
  sourceHttpHeaders?: HttpHeaders;
  startSeconds: number;
  durationSeconds: number;
  /** Analysis frame size; the source is scaled to exactly this. */
  width: number;
  height: number;
  /**
   * Parts of the picture (fractions of the frame) to look at instead of all of it: each is cut
   * out at the source's resolution and scaled to width × height, and each output frame stacks
   * them top to bottom, so one decode serves them all.
   */
  regions?: FrameRegion[];
  /** HDR → SDR filters, applied to the small frames (see tone-map-args.ts); null for SDR. */
  toneMapFilter?: string | null;
  sampling: FrameSampling;
  /** Video decoder threads; ffmpeg's default when absent. */
  videoDecoderThreads?: number;
  /**
   * Also meter the segment's first audio stream (EBU R128, as `measureLoudness`) in the same
   * run: one ffmpeg start and one read of the file instead of two. Only for a source with audio.
   */
  meterLoudness?: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /**
   * Called in order for each frame with its index (width × height, or that many times as tall
   * with `regions`); may be async (the next frames keep decoding meanwhile). Frame times are in
   * the result (a keyframe's is known only from ffmpeg's log).
   */
  onFrame: (frame: RgbFrame, index: number) => Promise<void> | void;
};

export type FrameSampling =
  /**
   * Evenly spaced frames. Every reference frame of the segment is decoded to reach them; the
   * others may be left undecoded (see buildSegmentInputArgs' skipFrames).
   */
  | { kind: "rate"; framesPerSecond: number; skipFrames?: SkippedFrames }
  /**
   * Only the keyframes, each decoded on its own, at most one per `minSpacingSeconds` (an
   * all-intra source has nothing but keyframes): a few percent of the decoding.
   */
  | { kind: "keyframes"; minSpacingSeconds: number };

/**
 * Frames waiting for `onFrame` while ffmpeg decodes ahead: decoding (ffmpeg, one core) and
 * analysis (face detection, the other core) overlap, yet memory stays bounded (a 256×144 frame
 * is 110 KB).
 */
const MAX_QUEUED_FRAMES = 24;

export function buildFrameSampleArgs(
  options: Omit<SampleFramesOptions, "onFrame" | "timeoutMs" | "signal" | "ffmpegPath">,
) {
  const { sourcePath, startSeconds, durationSeconds, width, height, sampling, toneMapFilter } = options;
  // Area averaging keeps small moving things visible at 1/8 size instead of aliasing them away.
  // An HDR picture is tone-mapped once small (nearly free): faces are found on what a viewer sees.
  const toneMap = toneMapFilter ? `,${toneMapFilter}` : "";
  const scale = `scale=${width}:${height}:flags=area${toneMap},format=rgb24`;
  const regions = options.regions ?? [];
  const picture =
    regions.length <= 1
      ? [...regions.map(regionCrop), scale].join(",")
      : [
          `split=${regions.length}${regions.map((_, index) => `[whole${index}]`).join("")}`,
          ...regions.map((region, index) => `[whole${index}]${regionCrop(region)},${scale}[region${index}]`),
          `${regions.map((_, index) => `[region${index}]`).join("")}vstack=inputs=${regions.length}`,
        ].join(";");
  const keyframesOnly = sampling.kind === "keyframes";
  return [
    "-hide_banner",
    "-nostdin",
    "-nostats",
    // `showinfo` reports each keyframe's time, and the meter its summary, at the info level.
    "-v",
    keyframesOnly || options.meterLoudness ? "info" : "error",
    ...(keyframesOnly ? ["-skip_frame:v", "nokey"] : []),
    ...buildSegmentInputArgs({
      input: sourcePath,
      startSeconds,
      durationSeconds,
      fastDecode: true,
      skipFrames: sampling.kind === "rate" ? sampling.skipFrames : undefined,
      videoDecoderThreads: options.videoDecoderThreads,
      httpHeaders: options.sourceHttpHeaders,
    }),
    ...(options.meterLoudness ? ["-map", "0:v:0"] : ["-an", "-sn", "-dn"]),
    "-vf",
    keyframesOnly
      ? `select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,${sampling.minSpacingSeconds})',${picture},showinfo`
      : // `fps` before `scale`: only the kept frames are scaled.
        `fps=${sampling.framesPerSecond},${picture}`,
    // One output frame per decoded keyframe: no frames duplicated to a constant rate.
    ...(keyframesOnly ? ["-vsync", "passthrough"] : []),
    "-f",
    "rawvideo",
    "pipe:1",
    ...(options.meterLoudness ? ["-map", "0:a:0", "-af", LOUDNESS_METER_FILTER, "-f", "null", "-"] : []),
  ];
}

/** A region of the frame as a crop filter, its size and position rounded to even pixels (4:2:0). */
function regionCrop(region: FrameRegion): string {
  const even = (fraction: number, size: "iw" | "ih") => `floor(${size}*${fraction.toFixed(4)}/2)*2`;
  return `crop=w=${even(region.width, "iw")}:h=${even(region.height, "ih")}:x=${even(region.x, "iw")}:y=${even(region.y, "ih")}`;
}

/** `showinfo`'s line for a frame: `n:   3 pts:  90090 pts_time:3.003 …`. */
const SHOWINFO_FRAME = /\bn:\s*(\d+)\s+pts:\s*-?\d+\s+pts_time:\s*(-?[\d.]+)/;

/**
 * What the H.264/HEVC decoders say when a frame refers to a picture they do not have. Not
 * "mmco: unref short failure": with B-frames skipped, x264's B-pyramid makes the decoder log
 * that for the skipped reference B-frames, while every I and P frame still decodes bit-exact
 * (checked with framemd5 against a full decode).
 */
const MISSING_REFERENCE =
  /^\[(?:h264|hevc) @ [^\]]*\].*(?:reference|co located POCs unavailable|decode_slice_header error|concealing)/i;

export type SampledFrames = {
  frameCount: number;
  /** Each frame's time, seconds from the segment's start, by index. */
  frameTimesSeconds: number[];
  /** Decoder complaints about missing reference pictures: the frames may be corrupt. */
  referenceErrors: number;
  /** The audio's loudness when metered (null: the meter printed no summary). */
  loudness?: LoudnessMeasurement | null;
};

/**
 * Decodes frames of a segment into small RGB frames, streamed from ffmpeg's stdout (nothing is
 * written to disk or held beyond a short queue). Times are seconds from the segment's start.
 */
export async function sampleFrames(options: SampleFramesOptions): Promise<SampledFrames> {
  const { ffmpegPath, width, sampling, timeoutMs, signal, onFrame } = options;
  const height = options.height * Math.max(1, options.regions?.length ?? 0);
  const frameBytes = width * height * 3;
  let frameCount = 0;
  let referenceErrors = 0;
  // A keyframe's time is in `showinfo`'s line on stderr (read apart from the frames on stdout).
  const reportedTimesSeconds: number[] = [];
  const loudnessSummary = options.meterLoudness ? collectLoudnessSummary() : null;
  await runMedia({
    binaryPath: ffmpegPath,
    args: buildFrameSampleArgs(options),
    timeoutMs,
    signal,
    onStderrLine: (line) => {
      const shown = sampling.kind === "keyframes" ? SHOWINFO_FRAME.exec(line) : null;
      if (shown) reportedTimesSeconds[Number(shown[1])] = Number(shown[2]);
      else if (MISSING_REFERENCE.test(line)) referenceErrors += 1;
      else loudnessSummary?.addLine(line);
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
          const index = frameCount;
          frameCount += 1;
          queued += 1;
          chain = chain.then(async () => {
            await onFrame(frame, index);
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
  const frameTimesSeconds = Array.from({ length: frameCount }, (_, index) => {
    if (sampling.kind === "rate") return index / sampling.framesPerSecond;
    const reported = reportedTimesSeconds[index];
    if (reported === undefined) throw new Error(`ffmpeg did not report the time of keyframe ${index}`);
    return reported;
  });
  return {
    frameCount,
    frameTimesSeconds,
    referenceErrors,
    ...(loudnessSummary && { loudness: loudnessSummary.measurement() }),
  };
}
