import type { FaceBox } from "@/engine/faces/face-detector";
import type { MotionMeasure } from "./measure-motion";
import type { SubjectTarget } from "./plan-crop-path";

export type FaceSample = { timeSeconds: number; faces: FaceBox[] };
/** Motion between two consecutive samples, timed at their midpoint. */
export type MotionSample = MotionMeasure & { timeSeconds: number };
/** How much the picture changed by `timeSeconds` since the sample before (mean luma change, 0..1). */
export type PictureChange = Pick<MotionSample, "timeSeconds" | "meanDifference">;

export type SubjectObservations = { faceSamples: FaceSample[]; motionSamples: MotionSample[] };

export type SubjectPlan = {
  /** `crop` follows the subject; `fit` shows the whole frame over a blurred copy of itself. */
  layout: "crop" | "fit";
  subject: "faces" | "motion" | "none";
  /** Where the subject's centre is at each sample (fractions of the source width). */
  targets: SubjectTarget[];
  /** A moment where the subject shows best (for the thumbnail), seconds from the clip's start. */
  highlights: { timeSeconds: number; weight: number }[];
  /** Why this layout, for logs and reports. */
  reason: string;
};

/** Faces must appear in at least this share of the face samples to lead the crop. */
const MIN_FACE_COVERAGE = 0.3;
/** A face smaller than this share of the largest face's area is background (a poster, a crowd). */
const PROMINENT_FACE_AREA_SHARE = 0.3;
/** Faces fit when their span is within this share of the crop width (room for heads and hands). */
const FACE_SPAN_FIT_SHARE = 0.85;
/** Below this share of samples with the faces fitting, the crop would cut someone off. */
const MIN_FITTING_SHARE = 0.6;
/** Motion counts as a subject when this share of pixels changed... */
const MIN_MOTION_ENERGY = 0.002;
/** ...and the change is concentrated (std of x within this share of the crop width). */
const MAX_MOTION_SPREAD_SHARE = 0.35;
/** Motion must be a subject in at least this share of motion samples to lead the crop. */
const MIN_MOTION_COVERAGE = 0.3;

/**
 * Decides what the 9:16 crop follows, or that it should not crop at all. Faces lead when they
 * are in the picture often enough; the crop follows the span of the prominent faces, unless they
 * are too far apart to fit, in which case the whole frame is shown (fit layout). Without faces,
 * concentrated motion leads. With neither, nothing in the wide shot deserves the crop, and the
 * fit layout keeps everything visible.
 */
export function chooseSubjectPlan({
  observations,
  cropWidthFraction,
}: {
  observations: SubjectObservations;
  cropWidthFraction: number;
}): SubjectPlan {
  const { faceSamples, motionSamples } = observations;
  const withFaces = faceSamples.filter((sample) => sample.faces.length > 0);
  if (faceSamples.length > 0 && withFaces.length / faceSamples.length >= MIN_FACE_COVERAGE) {
    const framed = withFaces.map((sample) => frameFaces(sample, cropWidthFraction));
    const fittingShare = framed.filter((frame) => frame.fits).length / framed.length;
    const highlights = framed.map((frame) => ({ timeSeconds: frame.timeSeconds, weight: frame.weight }));
    if (fittingShare < MIN_FITTING_SHARE) {
      return {
        layout: "fit",
        subject: "faces",
        targets: [],
        highlights,
        reason: `faces too far apart for 9:16 in ${Math.round((1 - fittingShare) * 100)}% of face samples`,
      };
    }
    const targets: SubjectTarget[] = faceSamples.map((sample) => ({
      timeSeconds: sample.timeSeconds,
      centerX: sample.faces.length > 0 ? frameFaces(sample, cropWidthFraction).centerX : null,
    }));
    return {
      layout: "crop",
      subject: "faces",
      targets,
      highlights,
      reason: `faces in ${Math.round((withFaces.length / faceSamples.length) * 100)}% of samples`,
    };
  }

  const isSalient = (sample: MotionSample) =>
    sample.centerX !== null &&
    sample.energy >= MIN_MOTION_ENERGY &&
    sample.spreadX <= MAX_MOTION_SPREAD_SHARE * cropWidthFraction;
  const salient = motionSamples.filter(isSalient);
  const motionCoverage = motionSamples.length > 0 ? salient.length / motionSamples.length : 0;
  if (motionCoverage >= MIN_MOTION_COVERAGE) {
    return {
      layout: "crop",
      subject: "motion",
      targets: motionSamples.map((sample) => ({
        timeSeconds: sample.timeSeconds,
        centerX: isSalient(sample) ? sample.centerX : null,
      })),
      highlights: salient.map((sample) => ({ timeSeconds: sample.timeSeconds, weight: sample.energy })),
      reason: `concentrated motion in ${Math.round(motionCoverage * 100)}% of samples`,
    };
  }
  return {
    layout: "fit",
    subject: "none",
    targets: [],
    highlights: [],
    reason: "no faces and no concentrated motion: nothing to follow in a wide shot",
  };
}

/** Where to centre on a frame's faces, whether they fit, and how well they show (for thumbnails). */
function frameFaces(sample: FaceSample, cropWidthFraction: number) {
  const largestArea = Math.max(...sample.faces.map((face) => face.width * face.height));
  const prominent = sample.faces.filter(
    (face) => face.width * face.height >= PROMINENT_FACE_AREA_SHARE * largestArea,
  );
  const left = Math.min(...prominent.map((face) => face.x));
  const right = Math.max(...prominent.map((face) => face.x + face.width));
  const fits = right - left <= FACE_SPAN_FIT_SHARE * cropWidthFraction;
  const largest = prominent.find((face) => face.width * face.height === largestArea) ?? prominent[0]!;
  return {
    timeSeconds: sample.timeSeconds,
    fits,
    // When they do not fit, stay on the most prominent face rather than the empty middle.
    centerX: fits ? (left + right) / 2 : largest.x + largest.width / 2,
    weight: largest.score * Math.sqrt(largestArea),
  };
}
