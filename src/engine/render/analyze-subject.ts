import { type FaceBox, type FaceDetector, FRAMES_PER_DETECTION } from "@/engine/faces/face-detector";
import type { SubjectSampling } from "@/engine/types";
import type { SkippedFrames } from "@/media/cut-args";
import type { LoudnessMeasurement } from "@/media/loudness-args";
import type { HttpHeaders } from "@/media/probe-args";
import type { FrameRegion } from "@/media/vertical-crop-args";
import { accumulateChangeMap, type ChangeMap } from "./change-map";
import type { FaceSample, MotionSample, PictureChange, SubjectObservations } from "./choose-subject-plan";
import { type CellMotion, findMotionOverlays, motionOutside, packCellMotion } from "./find-motion-overlays";
import { closerLookRegions } from "./find-still-insets";
import { CELL_SUMS, measureMotion, motionGridOf, rgbToLuma } from "./measure-motion";
import { pairFaceDetection } from "./paired-face-detection";
import { type FrameSampling, sampleFrames } from "./sample-frames";

/**
 * Sampling, chosen against the render budget (the whole render within ~1.15× a bare crop and
 * encode). Motion is measured at 4 fps: frame differencing is nearly free on 256-px frames and a
 * quarter second between samples keeps a moving subject's two positions close. BlazeFace on
 * tfjs-WASM costs ~50 ms of CPU an inference, as much as decoding a few seconds of the segment,
 * so faces are looked for once a second, two frames to an inference (see `stackFrames`), and
 * a frame that has barely changed since the last one looked at reuses its faces. The crop path
 * interpolates between samples and moves slowly anyway.
 */
export const ANALYSIS_FRAMES_PER_SECOND = 4;
/** Faces are detected on every 4th frame (every second). */
export const FACE_DETECTION_EVERY_NTH_FRAME = 4;
export const ANALYSIS_FRAME_WIDTH = 256;

export type AnalyzeSubjectOptions = {
  ffmpegPath: string;
  sourcePath: string;
  /** Sent with every request when `sourcePath` is a URL (see buildSegmentInputArgs). */
  sourceHttpHeaders?: HttpHeaders;
  startSeconds: number;
  durationSeconds: number;
  /** Display dimensions (after rotation), for the analysis frames' aspect ratio. */
  sourceWidth: number;
  sourceHeight: number;
  /** The source's video codec: which frames the sampler may leave undecoded (framesToSkip). */
  videoCodec: string | null;
  /** Null: motion only (the detector could not load). */
  faceDetector: FaceDetector | null;
  /** HDR → SDR filters for the analysis frames; none for SDR. */
  toneMapFilter?: string | null;
  /** Video decoder threads; ffmpeg's default when absent. */
  videoDecoderThreads?: number;
  /**
   * Keyframes (seconds from the segment's start) where the 4 fps pass splits its decode into
   * parts decoded side by side (see decode-parts.ts); none: one ffmpeg run.
   */
  decodeSplitsSeconds?: number[];
  /** Meter the segment's audio in the same ffmpeg run (see `sampleFrames`); only with audio. */
  meterLoudness?: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Fraction of the segment analysed so far, 0..1. */
  onProgress?: (fraction: number) => void;
};

/** What the audio measured, beside the picture, when the pass was asked to meter it. */
type WithLoudness = { loudness?: LoudnessMeasurement | null };

/** Samples the segment and records where faces are and where the picture moves. */
export async function analyzeSubject(
  options: AnalyzeSubjectOptions,
): Promise<{ observations: SubjectObservations } & WithLoudness> {
  const skipFrames = framesToSkip(options.videoCodec);
  const first = await observe(options, skipFrames);
  // An encoder that references B-frames from P-frames makes skipped-B decoding corrupt: the
  // decoder says so, and the segment is sampled again without them (the audio was metered).
  if (skipFrames === "bidir" && first.referenceErrors > 0) {
    const again = await observe({ ...options, meterLoudness: false }, "noref");
    return { observations: again.observations, loudness: first.loudness };
  }
  return first;
}

/**
 * The frames a 4 fps sampler leaves undecoded: every B-frame of H.264 (half its decoding for
 * x264's output), and elsewhere those no frame refers to. On 10 s of a 4K60 HEVC source from
 * x265 (three B-frames) ffmpeg's decode took 8–9 CPU-s instead of 16, the pass 6.6–7.4 s instead
 * of 11.1–12.2; where every frame is a reference (many phones' HEVC), nothing is skipped.
 */
export function framesToSkip(videoCodec: string | null): SkippedFrames {
  return videoCodec === "h264" ? "bidir" : "noref";
}

async function observe(options: AnalyzeSubjectOptions, skipFrames: SkippedFrames) {
  const { durationSeconds, faceDetector, signal, onProgress } = options;
  const width = ANALYSIS_FRAME_WIDTH;
  const height = analysisFrameHeight(options);
  const motionSamples: MotionSample[] = [];
  // Where each sample's change was, cell by cell: to leave overlays out once the clip is seen.
  const grid = { width, height, ...motionGridOf(width, height) };
  const cellSums = new Float64Array(grid.columns * grid.rows * CELL_SUMS);
  const cellMotions: CellMotion[] = [];
  const faceSampleTimesSeconds: number[] = [];
  let previous: { luma: Uint8Array; timeSeconds: number } | null = null;
  const detection = faceDetector ? pairFaceDetection(faceDetector, width, height) : null;
  // Only needed to find a face cam's edges: kept when there is a detector.
  const changeMap = faceDetector ? accumulateChangeMap(width, height) : null;
  const expectedFrames = Math.max(1, Math.ceil(durationSeconds * ANALYSIS_FRAMES_PER_SECOND));

  const { referenceErrors, loudness } = await sampleFrames({
    ...segmentToSample(options),
    width,
    height,
    sampling: {
      kind: "rate",
      framesPerSecond: ANALYSIS_FRAMES_PER_SECOND,
      skipFrames,
      splitsSeconds: options.decodeSplitsSeconds,
    },
    meterLoudness: options.meterLoudness,
    onFrame: async (frame, index) => {
      signal?.throwIfAborted();
      const timeSeconds = index / ANALYSIS_FRAMES_PER_SECOND;
      const luma = rgbToLuma(frame.data, width, height);
      if (previous) {
        const motion = measureMotion(previous.luma, luma, width, height, cellSums);
        motionSamples.push({ ...motion, timeSeconds: (previous.timeSeconds + timeSeconds) / 2 });
        cellMotions.push(packCellMotion(cellSums));
        cellSums.fill(0);
        changeMap?.add(previous.luma, luma);
      }
      previous = { luma, timeSeconds };
      if (detection && index % FACE_DETECTION_EVERY_NTH_FRAME === 0) {
        faceSampleTimesSeconds.push(timeSeconds);
        await detection.add(frame, luma);
      }
      onProgress?.(Math.min(1, (index + 1) / expectedFrames));
    },
  });
  const facesBySample = detection ? await detection.finish() : [];
  const faceSamples: FaceSample[] = faceSampleTimesSeconds.map((timeSeconds, sample) => ({
    timeSeconds,
    faces: facesBySample[sample] ?? [],
  }));
  const overlays = findMotionOverlays(cellMotions, grid);
  return {
    observations: {
      faceSamples,
      motionSamples:
        overlays.regions.length === 0
          ? motionSamples
          : motionSamples.map((sample, index) =>
              motionOutside(sample, cellMotions[index]!, overlays.masked, grid),
            ),
      motionOverlays: overlays.regions,
      changeMap: changeMap?.result() ?? null,
    },
    referenceErrors,
    loudness,
  };
}

export type KeyframeScan = WithLoudness & {
  /** Faces on each scanned keyframe (none found: an empty list); no samples without a detector. */
  faceSamples: FaceSample[];
  /** When the scanned keyframes are, seconds from the segment's start. */
  keyframeTimesSeconds: number[];
  /** How much each keyframe differs from the one before (mean luma change, 0..1): cuts show. */
  changes: PictureChange[];
  /** Where the keyframes differ from each other (with a detector only: for a face cam's edges). */
  changeMap: ChangeMap | null;
};

/**
 * Looks at the segment's keyframes only: each decodes on its own, so this costs a few percent of
 * the decoding `analyzeSubject` does. Where keyframes come often enough, or nothing moves between
 * them, they show everything the sampled frames would (see `keyframesSuffice`).
 */
export async function scanKeyframes(
  options: Omit<AnalyzeSubjectOptions, "videoCodec" | "onProgress">,
): Promise<KeyframeScan> {
  const { faceDetector, signal } = options;
  const width = ANALYSIS_FRAME_WIDTH;
  const height = analysisFrameHeight(options);
  const differenceFromPrevious: number[] = [];
  let previousLuma: Uint8Array | null = null;
  // A still shot's keyframes are all alike: faces are detected once.
  const detection = faceDetector ? pairFaceDetection(faceDetector, width, height) : null;
  const changeMap = faceDetector ? accumulateChangeMap(width, height) : null;
  const { frameTimesSeconds, loudness } = await sampleFrames({
    ...segmentToSample(options),
    width,
    height,
    sampling: { kind: "keyframes", minSpacingSeconds: 1 / ANALYSIS_FRAMES_PER_SECOND },
    meterLoudness: options.meterLoudness,
    onFrame: async (frame, index) => {
      signal?.throwIfAborted();
      const luma = rgbToLuma(frame.data, width, height);
      if (previousLuma) {
        differenceFromPrevious[index] = measureMotion(previousLuma, luma, width, height).meanDifference;
        changeMap?.add(previousLuma, luma);
      }
      previousLuma = luma;
      await detection?.add(frame, luma);
    },
  });
  // By keyframe index, as the times (read from ffmpeg's log after the frames).
  const facesByKeyframe = detection ? await detection.finish() : [];
  return {
    loudness,
    keyframeTimesSeconds: frameTimesSeconds,
    faceSamples: faceDetector
      ? frameTimesSeconds.map((timeSeconds, index) => ({ timeSeconds, faces: facesByKeyframe[index] ?? [] }))
      : [],
    changeMap: changeMap?.result() ?? null,
    changes: frameTimesSeconds.slice(1).map((timeSeconds, previousIndex) => ({
      timeSeconds,
      meanDifference: differenceFromPrevious[previousIndex + 1] ?? 0,
    })),
  };
}

/** Keyframes looked at closely: enough to tell a cam's face, always there, from a passing one. */
const CLOSER_LOOK_KEYFRAMES = 6;
/** Fewer keyframes than this in the clip (a face cam is judged on two at least): frames instead. */
const MIN_CLOSER_LOOK_SAMPLES = 2;
/**
 * An inset without a face on more samples than this is no face cam (whose face is in 80% of
 * them, and at most ~7 are looked at): it is not looked at again.
 */
const MAX_MISSES_PER_INSET = 1;

/**
 * Looks for faces inside insets of the picture (where a cam might be: see find-still-insets.ts)
 * at the source's resolution: a face too small for the detector on the whole 256-px frame — a
 * streamer's face in a cam an eighth of the frame wide — fills a good part of a 256-px frame cut
 * from around its cam. Every inset of a keyframe comes from one decode, and only keyframes are decoded (spaced
 * to at most ~CLOSER_LOOK_KEYFRAMES of them), so this costs about what a keyframe scan does.
 * Face samples at the keyframes' times, their boxes in fractions of the whole frame.
 */
export async function lookCloserForFaces(
  options: Omit<AnalyzeSubjectOptions, "videoCodec" | "onProgress" | "meterLoudness" | "faceDetector"> & {
    faceDetector: FaceDetector;
    insets: FrameRegion[];
  },
): Promise<{ faceSamples: FaceSample[]; sampling: SubjectSampling }> {
  const regions = closerLookRegions(options.insets);
  if (regions.length === 0) return { faceSamples: [], sampling: "keyframes" };
  const sampleSpacingSeconds = Math.max(
    1 / ANALYSIS_FRAMES_PER_SECOND,
    options.durationSeconds / CLOSER_LOOK_KEYFRAMES,
  );
  const onKeyframes = await lookInRegions(options, regions, {
    kind: "keyframes",
    minSpacingSeconds: sampleSpacingSeconds,
  });
  if (onKeyframes.length >= MIN_CLOSER_LOOK_SAMPLES)
    return { faceSamples: onKeyframes, sampling: "keyframes" };
  // Keyframes too far apart for a clip this short (a recording may have one every 8 s): frames
  // between them, each reached by decoding every reference frame before it (a 4 fps pass's cost).
  return {
    // The decoder's default threads: the keyframes' one thread would decode all of it alone.
    faceSamples: await lookInRegions({ ...options, videoDecoderThreads: undefined }, regions, {
      kind: "rate",
      framesPerSecond: 1 / sampleSpacingSeconds,
    }),
    sampling: "frames",
  };
}

/** Faces in the regions of each sampled frame, in fractions of the whole frame. */
async function lookInRegions(
  options: Parameters<typeof lookCloserForFaces>[0],
  regions: FrameRegion[],
  sampling: FrameSampling,
): Promise<FaceSample[]> {
  const { faceDetector, signal } = options;
  const width = ANALYSIS_FRAME_WIDTH;
  const height = analysisFrameHeight(options);
  const regionBytes = width * height * 3;
  const missesByRegion = regions.map(() => 0);
  const facesBySample: FaceBox[][] = [];
  // Cut-out regions waiting for the detector, two to an inference (see `stackFrames`), across
  // samples: once a cam is the only region left, its samples go in pairs.
  const waiting: { regionIndex: number; sample: number; data: Uint8Array }[] = [];
  const detectWaiting = async (all: boolean) => {
    while (waiting.length >= FRAMES_PER_DETECTION || (all && waiting.length > 0)) {
      signal?.throwIfAborted();
      const batch = waiting.splice(0, FRAMES_PER_DETECTION);
      const found = await faceDetector.detect(batch.map(({ data }) => ({ width, height, data })));
      batch.forEach(({ regionIndex, sample }, slot) => {
        const region = regions[regionIndex]!;
        const faces = found[slot] ?? [];
        if (faces.length === 0) missesByRegion[regionIndex]! += 1;
        facesBySample[sample]!.push(
          ...faces.map((face) => ({
            ...face,
            x: region.x + face.x * region.width,
            y: region.y + face.y * region.height,
            width: face.width * region.width,
            height: face.height * region.height,
          })),
        );
      });
    }
  };
  const { frameTimesSeconds } = await sampleFrames({
    ...segmentToSample(options),
    width,
    height,
    regions,
    sampling,
    onFrame: async (stacked, sample) => {
      facesBySample[sample] = [];
      regions.forEach((_, regionIndex) => {
        if (missesByRegion[regionIndex]! > MAX_MISSES_PER_INSET) return;
        const data = stacked.data.subarray(regionIndex * regionBytes, (regionIndex + 1) * regionBytes);
        waiting.push({ regionIndex, sample, data });
      });
      await detectWaiting(false);
    },
  });
  await detectWaiting(true);
  return frameTimesSeconds.map((timeSeconds, sample) => ({
    timeSeconds,
    faces: facesBySample[sample] ?? [],
  }));
}

/** What every pass reads, and how: the segment of the source, and the ffmpeg run over it. */
function segmentToSample(
  options: Omit<AnalyzeSubjectOptions, "videoCodec" | "onProgress" | "meterLoudness" | "faceDetector">,
) {
  return {
    ffmpegPath: options.ffmpegPath,
    sourcePath: options.sourcePath,
    sourceHttpHeaders: options.sourceHttpHeaders,
    startSeconds: options.startSeconds,
    durationSeconds: options.durationSeconds,
    toneMapFilter: options.toneMapFilter,
    videoDecoderThreads: options.videoDecoderThreads,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
  };
}

function analysisFrameHeight(options: { sourceWidth: number; sourceHeight: number }): number {
  return Math.max(2, Math.round((ANALYSIS_FRAME_WIDTH * options.sourceHeight) / options.sourceWidth / 2) * 2);
}
