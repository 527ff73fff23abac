import { describe, expect, it } from "vitest";
import type { FaceBox } from "@/engine/faces/face-detector";
import {
  chooseSubjectPlan,
  type FaceSample,
  fitWhereTheCropLosesTheSubject,
  type MotionSample,
  type SubjectPlan,
} from "./choose-subject-plan";

const CROP_WIDTH = 0.316;

function face(centerX: number, size = 0.1, score = 0.9): FaceBox {
  return { x: centerX - size / 2, y: 0.3, width: size, height: size * 1.7, score };
}

function faceSamples(count: number, facesAt: (index: number) => FaceBox[]): FaceSample[] {
  return Array.from({ length: count }, (_, index) => ({ timeSeconds: index / 2, faces: facesAt(index) }));
}

function motion(centerX: number | null, energy: number, spreadX: number, timeSeconds = 0): MotionSample {
  return { timeSeconds, energy, meanDifference: energy / 4, centerX, centerY: 0.5, spreadX };
}

describe("chooseSubjectPlan", () => {
  it("crops on faces, centring on the span of the prominent ones and ignoring tiny background faces", () => {
    const plan = chooseSubjectPlan({
      observations: {
        faceSamples: faceSamples(10, (i) => (i < 8 ? [face(0.3), face(0.42), face(0.9, 0.02)] : [])),
        motionSamples: [motion(0.8, 0.1, 0.02)],
      },
      cropWidthFraction: CROP_WIDTH,
    });
    expect(plan.layout).toBe("crop");
    expect(plan.subject).toBe("faces");
    expect(plan.targets[0]?.centerX).toBeCloseTo(0.36, 6);
    expect(plan.targets[9]?.centerX).toBeNull();
    expect(plan.highlights).toHaveLength(8);
  });

  it("fits the whole frame when two faces are too far apart for 9:16", () => {
    const plan = chooseSubjectPlan({
      observations: { faceSamples: faceSamples(10, () => [face(0.15), face(0.85)]), motionSamples: [] },
      cropWidthFraction: CROP_WIDTH,
    });
    expect(plan.layout).toBe("fit");
    expect(plan.reason).toMatch(/too far apart/);
  });

  it("follows concentrated motion when there are no faces", () => {
    const motionSamples = Array.from({ length: 10 }, (_, i) => motion(0.2 + i * 0.05, 0.01, 0.03, i / 4));
    const plan = chooseSubjectPlan({
      observations: { faceSamples: faceSamples(5, () => []), motionSamples },
      cropWidthFraction: CROP_WIDTH,
    });
    expect(plan).toMatchObject({ layout: "crop", subject: "motion" });
    expect(plan.targets.map((target) => target.centerX)).toEqual(
      motionSamples.map((sample) => sample.centerX),
    );
  });

  it("fits a wide shot where nothing is salient: still, or motion everywhere (a pan)", () => {
    for (const motionSamples of [
      Array.from({ length: 10 }, () => motion(null, 0, 0)),
      Array.from({ length: 10 }, () => motion(0.5, 0.6, 0.28)),
    ]) {
      const plan = chooseSubjectPlan({
        observations: { faceSamples: faceSamples(5, () => []), motionSamples },
        cropWidthFraction: CROP_WIDTH,
      });
      expect(plan).toMatchObject({ layout: "fit", subject: "none" });
    }
  });

  it("does not let faces in a few samples override the motion subject", () => {
    const plan = chooseSubjectPlan({
      observations: {
        faceSamples: faceSamples(10, (i) => (i === 0 ? [face(0.9)] : [])),
        motionSamples: Array.from({ length: 10 }, (_, i) => motion(0.3, 0.01, 0.03, i / 4)),
      },
      cropWidthFraction: CROP_WIDTH,
    });
    expect(plan.subject).toBe("motion");
  });

  describe("face cam over a changing picture", () => {
    /** A face (brows to chin) centred at (x, y), `height` of the frame tall, on a 16:9 frame. */
    const camFace = (x: number, y: number, height = 0.14): FaceBox => {
      const width = (height * 9) / 16;
      return { x: x - width / 2, y: y - height / 2, width, height, score: 0.9 };
    };
    /** The plan's face cam framing; fails the test when the layout is not `facecam`. */
    const facecamOf = (chosen: SubjectPlan) => {
      if (chosen.layout !== "facecam") throw new Error(`expected the facecam layout, got ${chosen.layout}`);
      return chosen.facecam;
    };
    const changes = (meanDifference: number) =>
      Array.from({ length: 12 }, (_, index) => ({ timeSeconds: index / 4, meanDifference }));
    const plan = (facesAt: (index: number) => FaceBox[], pictureChange: number) =>
      chooseSubjectPlan({
        observations: { faceSamples: faceSamples(8, facesAt), motionSamples: [] },
        cropWidthFraction: CROP_WIDTH,
        pictureChanges: changes(pictureChange),
      });

    it("stacks a still face off to the side over the changing picture, the cam around the face", () => {
      const chosen = plan(() => [camFace(0.85, 0.8)], 0.05);
      expect(chosen).toMatchObject({ layout: "facecam", subject: "faces" });
      const region = facecamOf(chosen).shown;
      // 1.8 face heights tall, at the panel's 1080:640 shape, inside the frame.
      expect(region.height).toBeCloseTo(0.252, 3);
      // In pixels: the frame is 9 / 16 / CROP_WIDTH as wide as it is tall.
      expect(((region.width / region.height) * 9) / 16 / CROP_WIDTH).toBeCloseTo(1080 / 640, 6);
      expect(region.x + region.width / 2).toBeCloseTo(0.85, 6);
      expect(region.y + region.height).toBeLessThanOrEqual(1);
      expect(region.y).toBeLessThan(0.8 - 0.07);
      expect(chosen.highlights).toHaveLength(8);
    });

    it("frames the cam whose edges the change map shows, at the panel's shape", () => {
      // 256×144 analysis frames: the cam is [180, 244) × [90, 136), the game around it changes.
      const meanChange = new Float32Array(256 * 144).map((_, index) => {
        const [x, y] = [index % 256, Math.floor(index / 256)];
        return x >= 180 && x < 244 && y >= 90 && y < 136 ? 2 : 25;
      });
      const chosen = chooseSubjectPlan({
        observations: {
          faceSamples: faceSamples(8, () => [camFace(211 / 256, 111 / 144, 26 / 144)]),
          motionSamples: [],
          changeMap: { width: 256, height: 144, meanChange, pairs: 12 },
        },
        cropWidthFraction: CROP_WIDTH,
        pictureChanges: changes(0.05),
      });
      const region = facecamOf(chosen).shown;
      // The cam (two pixels inside its edges) is narrower than the panel's shape: its full width,
      // and as much of its height as that shape allows, around the head.
      expect(region.x).toBeCloseTo(182 / 256, 9);
      expect(region.width).toBeCloseTo(60 / 256, 9);
      expect(((region.width / region.height) * 9) / 16 / CROP_WIDTH).toBeCloseTo(1080 / 640, 6);
      expect(region.y).toBeGreaterThanOrEqual(92 / 144);
      expect(region.y + region.height).toBeLessThanOrEqual(134 / 144 + 1e-9);
      expect(chosen.reason).toContain("cam edges found: left, right, top, bottom");
      // The whole cam, which the picture below keeps clear of.
      expect(facecamOf(chosen).box.x).toBeCloseTo(182 / 256, 9);
      expect(facecamOf(chosen).box.y).toBeCloseTo(92 / 144, 9);
      expect(facecamOf(chosen).box.width).toBeCloseTo(60 / 256, 9);
      expect(facecamOf(chosen).box.height).toBeCloseTo(42 / 144, 9);
    });

    it("moves the cam's box inside the frame when the face is at its edge", () => {
      const region = facecamOf(plan(() => [camFace(0.95, 0.92)], 0.05)).shown;
      expect(region.x + region.width).toBeCloseTo(1, 9);
      expect(region.y + region.height).toBeCloseTo(1, 9);
    });

    it("keeps cropping on the face when it is not a face cam", () => {
      // A still picture around it: a talking head beside a window.
      expect(plan(() => [camFace(0.85, 0.8)], 0.004).layout).toBe("crop");
      // Near the middle, where a crop shows face and picture alike.
      expect(plan(() => [camFace(0.55, 0.4)], 0.05).layout).toBe("crop");
      // A face that moves: somebody walking through the shot.
      expect(plan((index) => [camFace(0.7 + index * 0.03, 0.5)], 0.05).layout).toBe("crop");
      // Large: a close-up, not an inset.
      expect(plan(() => [camFace(0.8, 0.5, 0.4)], 0.05).layout).toBe("crop");
      // In too few samples to be a cam that is always on.
      expect(plan((index) => (index < 5 ? [camFace(0.85, 0.8)] : []), 0.05).layout).toBe("crop");
    });
  });

  describe("the creator's choice", () => {
    const still = Array.from({ length: 10 }, (_, i) => motion(null, 0, 0, i / 4));

    it("keeps the automatic plan when it already has the chosen layout", () => {
      const observations = { faceSamples: faceSamples(8, () => [face(0.4)]), motionSamples: still };
      const automatic = chooseSubjectPlan({ observations, cropWidthFraction: CROP_WIDTH });
      expect(automatic.layout).toBe("crop");
      expect(chooseSubjectPlan({ observations, cropWidthFraction: CROP_WIDTH, choice: "crop" })).toEqual(
        automatic,
      );
    });

    it("crops where the picture suggested the whole frame: on the most prominent face, else the motion, else the middle", () => {
      // Two faces too far apart: the crop stays on the larger one.
      const apart = chooseSubjectPlan({
        observations: {
          faceSamples: faceSamples(8, () => [face(0.15, 0.08), face(0.85, 0.12)]),
          motionSamples: [],
        },
        cropWidthFraction: CROP_WIDTH,
        choice: "crop",
      });
      expect(apart).toMatchObject({ layout: "crop", subject: "faces" });
      expect(apart.targets.length).toBeGreaterThan(0);
      for (const target of apart.targets) expect(target.centerX).toBeCloseTo(0.85, 9);
      expect(apart.reason).toMatch(/creator's choice/);
      // Motion spread over the frame (a pan) is followed anyway; a still shot is cropped in the middle.
      const pan = Array.from({ length: 10 }, (_, i) => motion(0.6, 0.6, 0.28, i / 4));
      expect(
        chooseSubjectPlan({
          observations: { faceSamples: faceSamples(5, () => []), motionSamples: pan },
          cropWidthFraction: CROP_WIDTH,
          choice: "crop",
        }),
      ).toMatchObject({
        layout: "crop",
        subject: "motion",
        targets: pan.map(() => ({ centerX: 0.6 })),
      });
      const middle = chooseSubjectPlan({
        observations: { faceSamples: faceSamples(5, () => []), motionSamples: still },
        cropWidthFraction: CROP_WIDTH,
        choice: "crop",
      });
      expect(middle).toMatchObject({ layout: "crop", subject: "none" });
      expect(middle.targets.every((target) => target.centerX === null)).toBe(true);
    });

    it("puts a face that is no face cam in the face cam panel when asked, and says so when there is no face", () => {
      // A large face in the middle, over a still picture: automatically a crop.
      const observations = { faceSamples: faceSamples(8, () => [face(0.5, 0.2)]), motionSamples: still };
      const chosen = chooseSubjectPlan({ observations, cropWidthFraction: CROP_WIDTH, choice: "facecam" });
      if (chosen.layout !== "facecam") throw new Error(`expected the facecam layout, got ${chosen.layout}`);
      expect(chosen.facecam.shown.x + chosen.facecam.shown.width / 2).toBeCloseTo(0.5, 6);
      expect(chosen.reason).toMatch(/creator's choice, the face at 50% across/);

      const noFace = chooseSubjectPlan({
        observations: { faceSamples: faceSamples(8, () => []), motionSamples: still },
        cropWidthFraction: CROP_WIDTH,
        choice: "facecam",
      });
      expect(noFace).toMatchObject({ layout: "fit", subject: "none" });
      expect(noFace.reason).toMatch(/^no face for a face cam panel, so no faces and no concentrated motion/);
    });
  });
});

describe("fitWhereTheCropLosesTheSubject", () => {
  const crop: SubjectPlan = {
    layout: "crop",
    subject: "motion",
    targets: [{ timeSeconds: 0, centerX: 0.2 }],
    highlights: [{ timeSeconds: 0, weight: 1 }],
    reason: "concentrated motion in 90% of samples",
  };

  it("shows the whole frame when the camera keeps the subject in view in under 60% of samples", () => {
    const plan = fitWhereTheCropLosesTheSubject(crop, 0.33);
    expect(plan).toMatchObject({
      layout: "fit",
      subject: "motion",
      targets: [],
      highlights: crop.highlights,
    });
    expect(plan.reason).toBe(
      "concentrated motion in 90% of samples, but a 9:16 camera keeps the moving subject in view in only 33% of them",
    );
  });

  it("keeps a crop that shows its subject, and any other layout, as planned", () => {
    expect(fitWhereTheCropLosesTheSubject(crop, 0.6)).toBe(crop);
    expect(fitWhereTheCropLosesTheSubject(crop, null)).toBe(crop);
    const fit: SubjectPlan = { ...crop, layout: "fit" };
    expect(fitWhereTheCropLosesTheSubject(fit, 0)).toBe(fit);
  });
});
