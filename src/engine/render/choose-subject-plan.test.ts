import { describe, expect, it } from "vitest";
import type { FaceBox } from "@/engine/faces/face-detector";
import { chooseSubjectPlan, type FaceSample, type MotionSample } from "./choose-subject-plan";

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
});
