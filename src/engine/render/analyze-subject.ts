import type { FaceBox, FaceDetector, RgbFrame } from "@/engine/faces/face-detector";
import type { FaceSample, MotionSample, PictureChange, SubjectObservations } from "./choose-subject-plan";
import { measureMotion, rgbToLuma } from "./measure-motion";
import { sampleFrames } from "./sample-frames";

/**
 * Sampling, chosen against the render budget (the whole render within ~1.15× a bare crop and
 * encode). Motion is measured at 4 fps: frame differencing is nearly free on 256-px frames and a
 * quarter second between samples keeps a moving subject's two positions close. BlazeFace on
 * tfjs-WASM costs 40–80 ms of CPU a frame, more than decoding the segment, and the analysis
 * waits for it, so faces are detected adaptively: every 2 s, plus the frame halfway between two
 * detections that disagree (a face moved, appeared or left), so 1 fps where the subject moves.
 * The crop path interpolates between samples and moves slowly anyway. A frame that has barely
 * changed since the last detection reuses its faces (a talking head on a still camera).
 */
export const ANALYSIS_FRAMES_PER_SECOND = 4;
/** Faces are detected on every 8th frame (every 2 s)... */
export const FACE_DETECTION_EVERY_NTH_FRAME = 8;
/** ...and halfway between two detections whose largest face moved by more than this (source widths). */
const FACE_REFINE_SHIFT = 0.03;
export const ANALYSIS_FRAME_WIDTH = 256;
/** Mean luma change (0..1) below which a frame counts as unchanged since the last detection. */
const UNCHANGED_FRAME_DIFFERENCE = 0.01;

export type AnalyzeSubjectOptions = {
  ffmpegPath: string;
  sourcePath: string;
  startSeconds: number;
  durationSeconds: number;
  /** Display dimensions (after rotation), for the analysis frames' aspect ratio. */
  sourceWidth: number;
  sourceHeight: number;
  /** The source's video codec; H.264 lets the sampler skip decoding B-frames. */
  videoCodec: string | null;
  /** Null: motion only (the detector could not load). */
  faceDetector: FaceDetector | null;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Fraction of the segment analysed so far, 0..1. */
  onProgress?: (fraction: number) => void;
};

/** Samples the segment and records where faces are and where the picture moves. */
export async function analyzeSubject(options: AnalyzeSubjectOptions): Promise<SubjectObservations> {
  const skipBidirectionalFrames = options.videoCodec === "h264";
  const first = await observe(options, skipBidirectionalFrames);
  // An encoder that references B-frames from P-frames makes skipped-B decoding corrupt: the
  // decoder says so, and the segment is sampled again in full.
  if (skipBidirectionalFrames && first.referenceErrors > 0)
    return (await observe(options, false)).observations;
  return first.observations;
}

async function observe(options: AnalyzeSubjectOptions, skipBidirectionalFrames: boolean) {
  const { durationSeconds, faceDetector, signal, onProgress } = options;
  const width = ANALYSIS_FRAME_WIDTH;
  const height = analysisFrameHeight(options);
  const faceSamples: FaceSample[] = [];
  const motionSamples: MotionSample[] = [];
  let previous: { luma: Uint8Array; timeSeconds: number } | null = null;
  const detect = faceDetector ? reusingDetector(faceDetector, width, height) : null;
  // The frame halfway to the next detection, kept in case the two detections disagree.
  let midway: { frame: RgbFrame; luma: Uint8Array; timeSeconds: number } | null = null;
  let frameIndex = 0;
  const expectedFrames = Math.max(1, Math.ceil(durationSeconds * ANALYSIS_FRAMES_PER_SECOND));
  const midwayOffset = Math.floor(FACE_DETECTION_EVERY_NTH_FRAME / 2);

  const { referenceErrors } = await sampleFrames({
    ffmpegPath: options.ffmpegPath,
    sourcePath: options.sourcePath,
    startSeconds: options.startSeconds,
    durationSeconds,
    width,
    height,
    sampling: { kind: "rate", framesPerSecond: ANALYSIS_FRAMES_PER_SECOND, skipBidirectionalFrames },
    timeoutMs: options.timeoutMs,
    signal,
    onFrame: async (frame, index) => {
      signal?.throwIfAborted();
      const timeSeconds = index / ANALYSIS_FRAMES_PER_SECOND;
      const luma = rgbToLuma(frame.data, width, height);
      if (previous) {
        const motion = measureMotion(previous.luma, luma, width, height);
        motionSamples.push({ ...motion, timeSeconds: (previous.timeSeconds + timeSeconds) / 2 });
      }
      previous = { luma, timeSeconds };
      if (detect) {
        const phase = frameIndex % FACE_DETECTION_EVERY_NTH_FRAME;
        if (phase === midwayOffset) midway = { frame, luma, timeSeconds };
        if (phase === 0) {
          const before = faceSamples.at(-1);
          const faces = await detect(frame, luma);
          if (before && midway && facesDisagree(before.faces, faces)) {
            faceSamples.push({
              timeSeconds: midway.timeSeconds,
              faces: await detect(midway.frame, midway.luma, false),
            });
          }
          midway = null;
          faceSamples.push({ timeSeconds, faces });
        }
      }
      frameIndex += 1;
      onProgress?.(Math.min(1, frameIndex / expectedFrames));
    },
  });
  return { observations: { faceSamples, motionSamples }, referenceErrors };
}

export type KeyframeScan = {
  /** Faces on each scanned keyframe (none found: an empty list); no samples without a detector. */
  faceSamples: FaceSample[];
  /** When the scanned keyframes are, seconds from the segment's start. */
  keyframeTimesSeconds: number[];
  /** How much each keyframe differs from the one before (mean luma change, 0..1): cuts show. */
  changes: PictureChange[];
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
  // By keyframe index: times come with the result (from ffmpeg's log), after the frames.
  const facesByKeyframe: FaceBox[][] = [];
  const differenceFromPrevious: number[] = [];
  let previousLuma: Uint8Array | null = null;
  // A still shot's keyframes are all alike: faces are detected once.
  const detect = faceDetector ? reusingDetector(faceDetector, width, height) : null;
  const { frameTimesSeconds } = await sampleFrames({
    ffmpegPath: options.ffmpegPath,
    sourcePath: options.sourcePath,
    startSeconds: options.startSeconds,
    durationSeconds: options.durationSeconds,
    width,
    height,
    sampling: { kind: "keyframes", minSpacingSeconds: 1 / ANALYSIS_FRAMES_PER_SECOND },
    timeoutMs: options.timeoutMs,
    signal,
    onFrame: async (frame, index) => {
      signal?.throwIfAborted();
      const luma = rgbToLuma(frame.data, width, height);
      if (previousLuma) {
        differenceFromPrevious[index] = measureMotion(previousLuma, luma, width, height).meanDifference;
      }
      previousLuma = luma;
      if (detect) facesByKeyframe[index] = await detect(frame, luma);
    },
  });
  return {
    keyframeTimesSeconds: frameTimesSeconds,
    faceSamples: faceDetector
      ? frameTimesSeconds.map((timeSeconds, index) => ({ timeSeconds, faces: facesByKeyframe[index] ?? [] }))
      : [],
    changes: frameTimesSeconds.slice(1).map((timeSeconds, previousIndex) => ({
      timeSeconds,
      meanDifference: differenceFromPrevious[previousIndex + 1] ?? 0,
    })),
  };
}

/**
 * The detector, skipping frames that have barely changed since its last detection: they reuse
 * its faces (a talking head on a still camera). `remember: false` detects without becoming the
 * frame later ones are compared with (an in-between frame).
 */
function reusingDetector(faceDetector: FaceDetector, width: number, height: number) {
  let lastDetection: { luma: Uint8Array; faces: FaceBox[] } | null = null;
  return async (frame: RgbFrame, luma: Uint8Array, remember = true): Promise<FaceBox[]> => {
    if (
      lastDetection &&
      measureMotion(lastDetection.luma, luma, width, height).meanDifference < UNCHANGED_FRAME_DIFFERENCE
    ) {
      return lastDetection.faces;
    }
    const faces = await faceDetector.detect(frame);
    if (remember) lastDetection = { luma, faces };
    return faces;
  };
}

function analysisFrameHeight(options: { sourceWidth: number; sourceHeight: number }): number {
  return Math.max(2, Math.round((ANALYSIS_FRAME_WIDTH * options.sourceHeight) / options.sourceWidth / 2) * 2);
}

/** Whether a face appeared, left, or the most prominent one moved noticeably. */
function facesDisagree(before: FaceBox[], after: FaceBox[]): boolean {
  if (before.length === 0 && after.length === 0) return false;
  if (before.length === 0 || after.length === 0) return true;
  return Math.abs(largestFaceCentreX(before) - largestFaceCentreX(after)) > FACE_REFINE_SHIFT;
}

function largestFaceCentreX(faces: FaceBox[]): number {
  let largest = faces[0]!;
  for (const face of faces) if (face.width * face.height > largest.width * largest.height) largest = face;
  return largest.x + largest.width / 2;
}
