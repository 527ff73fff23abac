import { median } from "@/engine/curve-math";
import type { FaceBox } from "@/engine/faces/face-detector";
import type { LayoutChoice } from "@/engine/types";
import {
  FACECAM_PANEL_HEIGHT,
  type FacecamFraming,
  type FrameRegion,
  VERTICAL_WIDTH,
} from "@/media/vertical-crop-args";
import type { ChangeMap } from "./change-map";
import { type FacecamBounds, findFacecamBounds, MAX_CAM_REACH_IN_FACES } from "./find-facecam-bounds";
import type { MotionMeasure } from "./measure-motion";
import type { SubjectTarget } from "./plan-crop-path";

export type FaceSample = { timeSeconds: number; faces: FaceBox[] };
/** Motion between two consecutive samples, timed at their midpoint. */
export type MotionSample = MotionMeasure & { timeSeconds: number };
/** How much the picture changed by `timeSeconds` since the sample before (mean luma change, 0..1). */
export type PictureChange = Pick<MotionSample, "timeSeconds" | "meanDifference">;

export type SubjectObservations = {
  faceSamples: FaceSample[];
  /** With the change inside overlays left out (see find-motion-overlays.ts). */
  motionSamples: MotionSample[];
  /** Overlays (a clock, a chat box) whose change the motion samples leave out; none when absent. */
  motionOverlays?: FrameRegion[];
  /** Where the picture changed between the frames looked at (to find a face cam's edges). */
  changeMap?: ChangeMap | null;
};

export type SubjectPlan = {
  subject: "faces" | "motion" | "none";
  /** Where the subject's centre is at each sample (fractions of the source width). */
  targets: SubjectTarget[];
  /** A moment where the subject shows best (for the thumbnail), seconds from the clip's start. */
  highlights: { timeSeconds: number; weight: number }[];
  /** Why this layout, for logs and reports. */
  reason: string;
} /** `crop` follows the subject; `fit` shows the whole frame over a blurred copy of itself. */ & (
  | { layout: "crop" | "fit" }
  /** A streamer's face cam (a still face beside a moving picture) over the middle of the picture. */
  | { layout: "facecam"; facecam: FacecamFraming }
);

/** Faces must appear in at least this share of the face samples to lead the crop. */
const MIN_FACE_COVERAGE = 0.3;
/** A face smaller than this share of the largest face's area is background (a poster, a crowd). */
const PROMINENT_FACE_AREA_SHARE = 0.3;
/** Faces fit when their span is within this share of the crop width (room for heads and hands). */
const FACE_SPAN_FIT_SHARE = 0.85;
/**
 * Below this share of samples with the faces fitting (or with the subject in the camera's view),
 * the crop would cut someone off.
 */
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
 * are too far apart to fit, in which case the whole frame is shown (fit layout). A face cam
 * (a small face that never moves, off to the side of a picture that changes all the time: a
 * streamer over their game) gets the face cam layout instead, as following the face would crop
 * the game away. Without faces, concentrated motion leads. With neither, nothing in the wide
 * shot deserves the crop, and the fit layout keeps everything visible.
 */
export function chooseSubjectPlan(options: {
  observations: SubjectObservations;
  cropWidthFraction: number;
  /**
   * How much the whole picture changed between the samples: the motion samples' (the default),
   * or the keyframes' when only keyframes were looked at.
   */
  pictureChanges?: PictureChange[];
  /**
   * The creator's choice: `auto` (the default) decides as above; `crop` and `facecam` take that
   * layout whatever the picture suggests, as far as it can be made (a face cam needs a face).
   * The `fit` choice needs no subject at all, so it never comes here.
   */
  choice?: Exclude<LayoutChoice, "fit">;
}): SubjectPlan {
  const { choice = "auto", ...observed } = options;
  const automatic = chooseAutomatically(observed);
  if (choice === "auto" || choice === automatic.layout) return automatic;
  if (choice === "crop") return cropAnyway({ ...observed, highlights: automatic.highlights });
  const facecam = facecamAnyway(observed);
  if (!facecam) return { ...automatic, reason: `no face for a face cam panel, so ${automatic.reason}` };
  return {
    layout: "facecam",
    subject: "faces",
    facecam: facecam.framing,
    targets: [],
    highlights: automatic.highlights,
    reason: `the creator's choice, ${facecam.reason}`,
  };
}

function chooseAutomatically({
  observations,
  cropWidthFraction,
  pictureChanges = observations.motionSamples,
}: {
  observations: SubjectObservations;
  cropWidthFraction: number;
  pictureChanges?: PictureChange[];
}): SubjectPlan {
  const { faceSamples, motionSamples } = observations;
  const withFaces = faceSamples.filter((sample) => sample.faces.length > 0);
  if (facesLead(faceSamples)) {
    const framed = withFaces.map((sample) => frameFaces(sample, cropWidthFraction));
    const highlights = framed.map((frame) => ({ timeSeconds: frame.timeSeconds, weight: frame.weight }));
    const facecam = findFacecam({
      faceSamples,
      pictureChanges,
      changeMap: observations.changeMap ?? null,
      cropWidthFraction,
    });
    if (facecam) {
      return {
        layout: "facecam",
        subject: "faces",
        facecam: facecam.framing,
        targets: [],
        highlights,
        reason: facecam.reason,
      };
    }
    const fittingShare = framed.filter((frame) => frame.fits).length / framed.length;
    if (fittingShare < MIN_FITTING_SHARE) {
      return {
        layout: "fit",
        subject: "faces",
        targets: [],
        highlights,
        reason: `faces too far apart for 9:16 in ${Math.round((1 - fittingShare) * 100)}% of face samples`,
      };
    }
    return {
      layout: "crop",
      subject: "faces",
      targets: faceTargets(faceSamples, cropWidthFraction),
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

/**
 * The automatic crop checked against its own camera path: where the camera keeps the subject in
 * view (see shareOfTargetsInView) in fewer than MIN_FITTING_SHARE of the samples, the subject
 * moves too far and too fast for any 9:16 window, and the whole frame shows it better.
 */
export function fitWhereTheCropLosesTheSubject(plan: SubjectPlan, shareInView: number | null): SubjectPlan {
  if (plan.layout !== "crop" || shareInView === null || shareInView >= MIN_FITTING_SHARE) return plan;
  return {
    ...plan,
    layout: "fit",
    targets: [],
    reason: `${plan.reason}, but a 9:16 camera keeps the ${plan.subject === "faces" ? "faces" : "moving subject"} in view in only ${Math.round(shareInView * 100)}% of them`,
  };
}

/** A face cam shows a face in at least this share of the face samples: it is always on. */
const MIN_FACECAM_COVERAGE = 0.8;
/** A face cam's face stays put: its centre within this of its median (fractions of the frame). */
const FACECAM_STILL_DISTANCE = 0.03;
/** A face cam is an inset: its face is at most this share of the frame's height. */
const MAX_FACECAM_FACE_HEIGHT = 0.35;
/**
 * The picture around a face cam keeps changing: the median mean luma change between samples
 * (0..1, 256-px frames) is at least this. Five times what marks a still stretch (STILL_MOTION,
 * 0.003); the render test's game, a moving test pattern, changes by ~0.06 between keyframes.
 */
const MIN_FACECAM_PICTURE_CHANGE = 0.015;
/**
 * Where the cam's edges are not found, the panel shows this many face heights from top to
 * bottom (the detector's box runs from brows to chin): the head with a little room.
 */
const FACECAM_HEIGHT_IN_FACES = 1.8;
/** Where a head's middle is, down the face box from its top (the box's middle is 0.5). */
const HEAD_CENTRE_IN_FACE_BOX = 0.35;

/**
 * A face cam: one face in nearly every sample, small, still, and off to the side (outside the
 * 9:16 window a centred crop would take), over a picture that keeps changing. Null otherwise.
 */
function findFacecam({
  faceSamples,
  pictureChanges,
  changeMap,
  cropWidthFraction,
}: {
  faceSamples: FaceSample[];
  pictureChanges: PictureChange[];
  changeMap: ChangeMap | null;
  cropWidthFraction: number;
}): { framing: FacecamFraming; reason: string } | null {
  // One prominent face per sample: two people side by side are not a face cam.
  const camFaces = faceSamples.flatMap((sample) => {
    const prominent = prominentFaces(sample.faces);
    return prominent.length === 1 ? prominent : [];
  });
  if (camFaces.length < MIN_FACECAM_COVERAGE * faceSamples.length || camFaces.length < 2) return null;
  const face = medianFace(camFaces);
  const centreX = face.x + face.width / 2;
  const centreY = face.y + face.height / 2;
  const still = camFaces.every(
    (camFace) =>
      Math.abs(camFace.x + camFace.width / 2 - centreX) <= FACECAM_STILL_DISTANCE &&
      Math.abs(camFace.y + camFace.height / 2 - centreY) <= FACECAM_STILL_DISTANCE,
  );
  const offToTheSide = Math.abs(centreX - 0.5) > cropWidthFraction / 2;
  const pictureChange = medianPictureChange(pictureChanges);
  if (
    !still ||
    !offToTheSide ||
    face.height > MAX_FACECAM_FACE_HEIGHT ||
    !(pictureChange >= MIN_FACECAM_PICTURE_CHANGE)
  ) {
    return null;
  }
  const framed = frameFacecamAround({ face, changeMap, cropWidthFraction });
  return {
    framing: framed.framing,
    reason: `a face cam (a still face ${framed.description}) beside a changing picture (median change ${pictureChange.toFixed(3)}); ${framed.edges}`,
  };
}

/** Whether the picture keeps changing as a game does around a face cam. */
export function pictureKeepsChanging(pictureChanges: PictureChange[]): boolean {
  return medianPictureChange(pictureChanges) >= MIN_FACECAM_PICTURE_CHANGE;
}

function medianPictureChange(pictureChanges: PictureChange[]): number {
  return median(pictureChanges.map((change) => change.meanDifference)) ?? Number.NaN;
}

/**
 * The face cam layout for a creator who asked for it: the panel around the most prominent face,
 * where it mostly is, whether or not it looks like a cam. Null when no sample shows a face.
 */
function facecamAnyway({
  observations,
  cropWidthFraction,
}: {
  observations: SubjectObservations;
  cropWidthFraction: number;
}): { framing: FacecamFraming; reason: string } | null {
  const largestFaces = observations.faceSamples.flatMap((sample) =>
    sample.faces.length > 0 ? [largestFace(sample.faces)] : [],
  );
  if (largestFaces.length === 0) return null;
  const framed = frameFacecamAround({
    face: medianFace(largestFaces),
    changeMap: observations.changeMap ?? null,
    cropWidthFraction,
  });
  return {
    framing: framed.framing,
    reason: `the face ${framed.description} in a face cam panel; ${framed.edges}`,
  };
}

/** The face's median box. */
function medianFace(faces: FaceBox[]): FrameRegion {
  const middle = (values: number[]) => median(values) ?? Number.NaN;
  const centreX = middle(faces.map((face) => face.x + face.width / 2));
  const centreY = middle(faces.map((face) => face.y + face.height / 2));
  const width = middle(faces.map((face) => face.width));
  const height = middle(faces.map((face) => face.height));
  return { x: centreX - width / 2, y: centreY - height / 2, width, height };
}

/** The cam's framing around a face, with the edges the change map shows, described for logs. */
function frameFacecamAround({
  face,
  changeMap,
  cropWidthFraction,
}: {
  face: FrameRegion;
  changeMap: ChangeMap | null;
  cropWidthFraction: number;
}): { framing: FacecamFraming; description: string; edges: string } {
  const bounds = changeMap ? findFacecamBounds(changeMap, face) : {};
  const edges = Object.keys(bounds);
  const percent = (fraction: number) => Math.round(fraction * 100);
  return {
    framing: frameFacecam({ face, bounds, cropWidthFraction }),
    description: `at ${percent(face.x + face.width / 2)}% across, ${percent(face.y + face.height / 2)}% down`,
    edges:
      edges.length > 0 ? `cam edges found: ${edges.join(", ")}` : "no cam edges found: a box around the face",
  };
}

/**
 * A crop for a creator who asked for one where the picture suggested another layout: on the
 * faces when they are in enough samples (on the most prominent one where they do not fit),
 * else on the motion wherever there is any, else the middle of the frame.
 */
function cropAnyway({
  observations,
  cropWidthFraction,
  highlights,
}: {
  observations: SubjectObservations;
  cropWidthFraction: number;
  highlights: SubjectPlan["highlights"];
}): SubjectPlan {
  const { faceSamples, motionSamples } = observations;
  if (facesLead(faceSamples)) {
    return {
      layout: "crop",
      subject: "faces",
      targets: faceTargets(faceSamples, cropWidthFraction),
      highlights,
      reason: "the creator's choice: a crop on the faces",
    };
  }
  const targets = motionSamples.map((sample) => ({
    timeSeconds: sample.timeSeconds,
    centerX: sample.energy >= MIN_MOTION_ENERGY ? sample.centerX : null,
  }));
  const moving = targets.some((target) => target.centerX !== null);
  return {
    layout: "crop",
    subject: moving ? "motion" : "none",
    targets,
    highlights,
    reason: `the creator's choice: a crop ${moving ? "on the motion" : "in the middle of the frame"}`,
  };
}

/**
 * The cam's box, and what of it the top panel shows (in frame fractions): the panel's shape,
 * centred on the head as far as the cam allows. The cam is bounded by the edges found; on a
 * side without one, by the frame's edge if it is within MAX_CAM_REACH_IN_FACES, else by the
 * face-sized box (FACECAM_HEIGHT_IN_FACES face heights tall around the head), which is also
 * the whole region when no edge was found at all.
 */
function frameFacecam({
  face,
  bounds,
  cropWidthFraction,
}: {
  /** The face's median box. */
  face: FrameRegion;
  bounds: FacecamBounds;
  cropWidthFraction: number;
}): FacecamFraming {
  // A 9:16 window at full height is `cropWidthFraction` of the width, so the frame's own
  // width / height is 9 / 16 / cropWidthFraction.
  const frameAspect = 9 / 16 / cropWidthFraction;
  const centreX = face.x + face.width / 2;
  // The head reaches further above the detector's box (brows to chin) than below it.
  const centreY = face.y + face.height * HEAD_CENTRE_IN_FACE_BOX;
  // The face-sized box: no taller than the frame, no wider than it, at the panel's shape.
  const defaultHeight = Math.min(
    1,
    FACECAM_HEIGHT_IN_FACES * face.height,
    frameAspect / FACECAM_PANEL_ASPECT,
  );
  const defaultWidth = (defaultHeight * FACECAM_PANEL_ASPECT) / frameAspect;
  const within = (centre: number, size: number, from: number, to: number) =>
    Math.min(to - size, Math.max(from, centre - size / 2));
  const fallback = {
    x: within(centreX, defaultWidth, 0, 1),
    y: within(centreY, defaultHeight, 0, 1),
    width: defaultWidth,
    height: defaultHeight,
  };
  // No edge at all: nothing says where the cam is, beyond the face.
  if (Object.keys(bounds).length === 0) return { shown: fallback, box: fallback };
  const side = (
    found: number | undefined,
    frameEdge: 0 | 1,
    faceEdge: number,
    faceSize: number,
    otherwise: number,
  ) => found ?? (Math.abs(frameEdge - faceEdge) <= MAX_CAM_REACH_IN_FACES * faceSize ? frameEdge : otherwise);
  const cam = {
    left: side(bounds.left, 0, face.x, face.width, fallback.x),
    right: side(bounds.right, 1, face.x + face.width, face.width, fallback.x + fallback.width),
    top: side(bounds.top, 0, face.y, face.height, fallback.y),
    bottom: side(bounds.bottom, 1, face.y + face.height, face.height, fallback.y + fallback.height),
  };
  const camWidth = cam.right - cam.left;
  const camHeight = cam.bottom - cam.top;
  // The panel's shape inside the cam: its full height (a wide cam) or its full width (a tall one).
  const box = { x: cam.left, y: cam.top, width: camWidth, height: camHeight };
  if ((camWidth * frameAspect) / camHeight > FACECAM_PANEL_ASPECT) {
    const width = (camHeight * FACECAM_PANEL_ASPECT) / frameAspect;
    return { shown: { ...box, x: within(centreX, width, cam.left, cam.right), width }, box };
  }
  const height = (camWidth * frameAspect) / FACECAM_PANEL_ASPECT;
  return { shown: { ...box, y: within(centreY, height, cam.top, cam.bottom), height }, box };
}

/** The face cam panel's width / height. */
const FACECAM_PANEL_ASPECT = VERTICAL_WIDTH / FACECAM_PANEL_HEIGHT;

/** Faces lead when they are in at least MIN_FACE_COVERAGE of the samples. */
function facesLead(faceSamples: FaceSample[]): boolean {
  const withFaces = faceSamples.filter((sample) => sample.faces.length > 0).length;
  return faceSamples.length > 0 && withFaces / faceSamples.length >= MIN_FACE_COVERAGE;
}

/** Where the crop centres at each face sample; null where no face shows. */
function faceTargets(faceSamples: FaceSample[], cropWidthFraction: number): SubjectTarget[] {
  return faceSamples.map((sample) => ({
    timeSeconds: sample.timeSeconds,
    centerX: sample.faces.length > 0 ? frameFaces(sample, cropWidthFraction).centerX : null,
  }));
}

/** Where to centre on a frame's faces, whether they fit, and how well they show (for thumbnails). */
function frameFaces(sample: FaceSample, cropWidthFraction: number) {
  const prominent = prominentFaces(sample.faces);
  const left = Math.min(...prominent.map((face) => face.x));
  const right = Math.max(...prominent.map((face) => face.x + face.width));
  const fits = right - left <= FACE_SPAN_FIT_SHARE * cropWidthFraction;
  const largest = largestFace(prominent);
  return {
    timeSeconds: sample.timeSeconds,
    fits,
    // When they do not fit, stay on the most prominent face rather than the empty middle.
    centerX: fits ? (left + right) / 2 : largest.x + largest.width / 2,
    weight: largest.score * Math.sqrt(faceArea(largest)),
  };
}

/** The faces that matter in a frame: all but those much smaller than the largest. */
function prominentFaces(faces: FaceBox[]): FaceBox[] {
  if (faces.length === 0) return [];
  const largestArea = faceArea(largestFace(faces));
  return faces.filter((face) => faceArea(face) >= PROMINENT_FACE_AREA_SHARE * largestArea);
}

/** The largest of a frame's faces (the first of equals); `faces` is not empty. */
function largestFace(faces: FaceBox[]): FaceBox {
  return faces.reduce((largest, face) => (faceArea(face) > faceArea(largest) ? face : largest));
}

const faceArea = (face: FaceBox) => face.width * face.height;
