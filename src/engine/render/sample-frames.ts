import type { Readable } from "node:stream";
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
import { type DecodePart, decodeParts } from "./decode-parts";

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
  | {
      kind: "rate";
      framesPerSecond: number;
      skipFrames?: SkippedFrames;
      /**
       * Keyframes (seconds from the segment's start) where the decode splits into parts that
       * separate ffmpeg runs decode side by side (see decode-parts.ts); the frames arrive as
       * from one run. None: one run.
       */
      splitsSeconds?: number[];
    }
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
/**
 * Frames a later part of a split decode holds while the parts before it are still read (its
 * ffmpeg waits beyond this): 110 KB a 256×144 frame, so a part of up to a minute at 4 fps.
 */
const MAX_WAITING_BYTES = 32 * 1024 * 1024;

/**
 * The ffmpeg arguments of a pass, or of one part of a split decode (`part`: its frames are the
 * sample slots it owns, each at the time one run would have sampled; the first part also meters
 * the audio, over the whole segment, from a second, audio-only input of the same file).
 */
export function buildFrameSampleArgs(
  options: Omit<SampleFramesOptions, "onFrame" | "timeoutMs" | "signal" | "ffmpegPath">,
  part?: DecodePart,
) {
  const { sourcePath, width, height, sampling, toneMapFilter } = options;
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
  const rate = sampling.kind === "rate" ? sampling.framesPerSecond : 0;
  const segment = segmentOfPart(options, part, rate);
  const meterLoudness = options.meterLoudness && !segment.seekToKeyframe;
  // A later part's first slot is at most a slot after its start; the fps filter drops what
  // comes before it. Each part ends with its last slot, so no slot comes from two parts.
  const partSlots = part
    ? `${segment.seekToKeyframe ? `:start_time=${(part.firstSlot / rate - segment.offsetSeconds).toFixed(4)}` : ""},trim=end_frame=${part.slotCount}`
    : "";
  const audioInput = meterLoudness && part ? 1 : 0;
  return [
    "-hide_banner",
    "-nostdin",
    "-nostats",
    // `showinfo` reports each keyframe's time, and the meter its summary, at the info level.
    "-v",
    keyframesOnly || meterLoudness ? "info" : "error",
    ...(keyframesOnly ? ["-skip_frame:v", "nokey"] : []),
    ...(segment.seekToKeyframe ? ["-noaccurate_seek"] : []),
    ...buildSegmentInputArgs({
      input: sourcePath,
      startSeconds: segment.startSeconds,
      durationSeconds: segment.durationSeconds,
      fastDecode: true,
      skipFrames: sampling.kind === "rate" ? sampling.skipFrames : undefined,
      videoDecoderThreads: options.videoDecoderThreads,
      httpHeaders: options.sourceHttpHeaders,
    }),
    // The audio of the whole segment, for a part that meters it; its video is not decoded, but
    // its bytes are read (interleaved with the audio in the file): a URL source's segment is
    // fetched about twice, beside the decoding. (Metering each part's audio instead would
    // need the loudness gated over the whole segment, which ffmpeg's meter cannot combine.)
    ...(audioInput
      ? [
          "-vn",
          ...buildSegmentInputArgs({
            input: sourcePath,
            startSeconds: options.startSeconds,
            durationSeconds: options.durationSeconds,
            httpHeaders: options.sourceHttpHeaders,
          }),
        ]
      : []),
    ...(meterLoudness ? ["-map", "0:v:0"] : ["-an", "-sn", "-dn"]),
    "-vf",
    keyframesOnly
      ? `select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,${sampling.minSpacingSeconds})',${picture},showinfo`
      : // `fps` before `scale`: only the kept frames are scaled.
        `fps=${rate}${partSlots},${picture}`,
    // One output frame per decoded keyframe, or per slot of a part (whose first slot may be
    // after its start): no frames duplicated to a constant rate.
    ...(keyframesOnly || part ? ["-vsync", "passthrough"] : []),
    "-f",
    "rawvideo",
    "pipe:1",
    ...(meterLoudness ? ["-map", `${audioInput}:a:0`, "-af", LOUDNESS_METER_FILTER, "-f", "null", "-"] : []),
  ];
}

/**
 * What a part reads: from its keyframe to the next part's, and a slot beyond, since the fps
 * filter gives a slot its frame only once it has seen the frames after it (cut at the next
 * keyframe, a part whose pictures came every 0.1 s missed its last slot); its slot count stops
 * it there. A later part seeks a millisecond past its keyframe's time, rounded up (the time is
 * stored rounded to the millisecond, and a seek a hair before the keyframe would start decoding
 * at the one before it), without ffmpeg's accurate seek, which would drop the keyframe itself
 * for being before that point: its fps filter's start time keeps exactly the frames it owns.
 * Offsets count from the start as ffmpeg reads it (to the millisecond), as one run's times do;
 * `startSeconds` is where the part's input starts.
 */
function segmentOfPart(
  { startSeconds, durationSeconds }: Pick<SampleFramesOptions, "startSeconds" | "durationSeconds">,
  part: DecodePart | undefined,
  framesPerSecond: number,
): { startSeconds: number; offsetSeconds: number; durationSeconds: number; seekToKeyframe: boolean } {
  if (!part) return { startSeconds, offsetSeconds: 0, durationSeconds, seekToKeyframe: false };
  const startMilliseconds = Math.round(startSeconds * 1000);
  const offsetMilliseconds =
    part.offsetSeconds === 0
      ? 0
      : Math.ceil(startSeconds * 1000 + part.offsetSeconds * 1000 + 1 - 1e-6) - startMilliseconds;
  const offsetSeconds = offsetMilliseconds / 1000;
  const endSeconds = Math.min(
    durationSeconds,
    part.offsetSeconds + part.durationSeconds + 1 / framesPerSecond,
  );
  return {
    startSeconds: (startMilliseconds + offsetMilliseconds) / 1000,
    offsetSeconds,
    durationSeconds: endSeconds - offsetSeconds,
    seekToKeyframe: offsetMilliseconds > 0,
  };
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
 * A segment sampled at a rate with `splitsSeconds` is decoded in parts side by side, its frames
 * handed over in order as from one run.
 */
export async function sampleFrames(options: SampleFramesOptions): Promise<SampledFrames> {
  const { ffmpegPath, width, sampling, timeoutMs, onFrame } = options;
  const height = options.height * Math.max(1, options.regions?.length ?? 0);
  const frameBytes = width * height * 3;
  let referenceErrors = 0;
  // A keyframe's time is in `showinfo`'s line on stderr (read apart from the frames on stdout).
  const reportedTimesSeconds: number[] = [];
  const loudnessSummary = options.meterLoudness ? collectLoudnessSummary() : null;
  const onStderrLine = (line: string) => {
    const shown = sampling.kind === "keyframes" ? SHOWINFO_FRAME.exec(line) : null;
    if (shown) reportedTimesSeconds[Number(shown[1])] = Number(shown[2]);
    else if (MISSING_REFERENCE.test(line)) referenceErrors += 1;
    else loudnessSummary?.addLine(line);
  };
  const queue = frameQueue(onFrame);
  const parts =
    sampling.kind === "rate" && (sampling.splitsSeconds?.length ?? 0) > 0
      ? decodeParts({
          durationSeconds: options.durationSeconds,
          framesPerSecond: sampling.framesPerSecond,
          splitsSeconds: sampling.splitsSeconds ?? [],
        })
      : null;

  if (!parts) {
    await runMedia({
      binaryPath: ffmpegPath,
      args: buildFrameSampleArgs(options),
      timeoutMs,
      signal: options.signal,
      onStderrLine,
      consumeStdout: async (stdout) => {
        let index = 0;
        for await (const frame of framesOf(stdout, width, height)) await queue.push(frame, index++);
        await queue.drain();
      },
    });
  } else {
    await decodeInParts(parts, {
      signal: options.signal,
      run: (part, signal, consumeStdout) =>
        runMedia({
          binaryPath: ffmpegPath,
          args: buildFrameSampleArgs(options, part),
          timeoutMs,
          signal,
          onStderrLine,
          consumeStdout,
        }),
      read: (stdout) => framesOf(stdout, width, height),
      maxWaitingFrames: Math.max(1, Math.floor(MAX_WAITING_BYTES / frameBytes)),
      queue,
    });
  }
  const frameTimesSeconds = queue.indices.map((index) => {
    if (sampling.kind === "rate") return index / sampling.framesPerSecond;
    const reported = reportedTimesSeconds[index];
    if (reported === undefined) throw new Error(`ffmpeg did not report the time of keyframe ${index}`);
    return reported;
  });
  return {
    frameCount: queue.indices.length,
    frameTimesSeconds,
    referenceErrors,
    ...(loudnessSummary && { loudness: loudnessSummary.measurement() }),
  };
}

type FrameQueue = ReturnType<typeof frameQueue>;

/**
 * Frames on their way to `onFrame`, in order: `push` returns at once while fewer than
 * MAX_QUEUED_FRAMES wait (ffmpeg keeps decoding meanwhile), and an error from `onFrame` comes
 * out of the next `push` or `drain`, which the caller lets stop ffmpeg.
 */
function frameQueue(onFrame: SampleFramesOptions["onFrame"]) {
  const indices: number[] = [];
  let queued = 0;
  let chain: Promise<void> = Promise.resolve();
  let failure: { error: unknown } | undefined;
  let stopped = false;
  return {
    /** Each frame's index, in the order they were handed over. */
    indices,
    async push(frame: RgbFrame, index: number): Promise<void> {
      if (failure) throw failure.error;
      indices.push(index);
      queued += 1;
      chain = chain.then(async () => {
        if (!stopped) await onFrame(frame, index);
        queued -= 1;
      });
      chain.catch((error: unknown) => {
        failure ??= { error };
      });
      if (queued >= MAX_QUEUED_FRAMES) await chain;
    },
    async drain(): Promise<void> {
      await chain;
    },
    /** Frames still queued go no further (the pass failed: nothing may follow its error). */
    stop(): void {
      stopped = true;
    },
  };
}

/** The frames on a rawvideo stdout, each in its own buffer (they outlive the read). */
async function* framesOf(stdout: Readable, width: number, height: number): AsyncGenerator<RgbFrame> {
  const frameBytes = width * height * 3;
  let buffer = Buffer.allocUnsafe(frameBytes);
  let filled = 0;
  for await (const chunk of stdout as AsyncIterable<Buffer>) {
    let offset = 0;
    while (offset < chunk.length) {
      const copied = chunk.copy(buffer, filled, offset, Math.min(chunk.length, offset + frameBytes - filled));
      filled += copied;
      offset += copied;
      if (filled < frameBytes) continue;
      yield { width, height, data: new Uint8Array(buffer.buffer, buffer.byteOffset, frameBytes) };
      buffer = Buffer.allocUnsafe(frameBytes);
      filled = 0;
    }
  }
}

/**
 * Runs every part's ffmpeg at once and hands their frames to the queue in order: the first
 * part's as they come, a later part's held (up to `maxWaitingFrames`, then its ffmpeg waits)
 * until the parts before it have all been handed over and their ffmpeg runs have ended well.
 * Its frames take the indices of the slots it owns. One part failing stops the others at once,
 * frames still queued are dropped, and the call fails only when nothing more reaches `onFrame`.
 */
async function decodeInParts(
  parts: DecodePart[],
  {
    signal,
    run,
    read,
    maxWaitingFrames,
    queue,
  }: {
    signal: AbortSignal | undefined;
    run: (
      part: DecodePart,
      signal: AbortSignal,
      consumeStdout: (stdout: Readable) => Promise<void>,
    ) => Promise<unknown>;
    read: (stdout: Readable) => AsyncIterable<RgbFrame>;
    maxWaitingFrames: number;
    queue: FrameQueue;
  },
): Promise<void> {
  const stopAll = new AbortController();
  const stop = () => stopAll.abort(signal?.reason);
  if (signal?.aborted) stop();
  signal?.addEventListener("abort", stop, { once: true });
  // A part's turn comes when the part before it has handed over its last frame and ended well.
  const turns = parts.map(() => Promise.withResolvers<void>());
  for (const turn of turns) turn.promise.catch(() => undefined);
  turns[0]?.resolve();
  let failure: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    failure ??= { error };
    stopAll.abort(error);
    queue.stop();
    for (const turn of turns) turn.reject(error);
  };
  const decodePart = async (part: DecodePart, partIndex: number) => {
    const turn = turns[partIndex]!;
    let isMyTurn = false;
    turn.promise.then(
      () => {
        isMyTurn = true;
      },
      () => undefined,
    );
    const waiting: { frame: RgbFrame; index: number }[] = [];
    const handOver = async () => {
      for (const held of waiting.splice(0)) {
        if (stopAll.signal.aborted) return;
        await queue.push(held.frame, held.index);
      }
    };
    // The run ends when its frames are read, held or not: a part that fails is known at once,
    // not when the parts before it are done.
    await run(part, stopAll.signal, async (stdout) => {
      let index = part.firstSlot;
      for await (const frame of read(stdout)) {
        waiting.push({ frame, index: index++ });
        if (waiting.length >= maxWaitingFrames) await turn.promise;
        if (isMyTurn) await handOver();
      }
    });
    await turn.promise;
    await handOver();
    if (partIndex === parts.length - 1) await queue.drain();
    turns[partIndex + 1]?.resolve();
  };
  try {
    await Promise.allSettled(parts.map((part, partIndex) => decodePart(part, partIndex).catch(fail)));
  } finally {
    signal?.removeEventListener("abort", stop);
  }
  if (failure) {
    // A frame being analysed when it failed finishes first; the queued ones are dropped.
    await queue.drain().catch(() => undefined);
    throw failure.error;
  }
}
