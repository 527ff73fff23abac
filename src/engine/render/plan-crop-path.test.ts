import { describe, expect, it } from "vitest";
import { buildCropCenterExpression } from "./crop-path-expression";
import {
  type CropPathPoint,
  evaluateCropPath,
  highlightsInView,
  planCropPath,
  type SubjectTarget,
  shareOfTargetsInView,
} from "./plan-crop-path";

const CROP_WIDTH = 0.316; // 16:9 source → 9:16 window
const DEAD_ZONE = 0.05;
const MAX_SPEED = 0.2;

function sampleTargets(
  durationSeconds: number,
  centerAt: (timeSeconds: number) => number | null,
  samplesPerSecond = 4,
): SubjectTarget[] {
  const targets: SubjectTarget[] = [];
  for (let index = 0; index <= durationSeconds * samplesPerSecond; index += 1) {
    const timeSeconds = index / samplesPerSecond;
    targets.push({ timeSeconds, centerX: centerAt(timeSeconds) });
  }
  return targets;
}

function plan(targets: SubjectTarget[], durationSeconds: number, cutsSeconds: number[] = []) {
  return planCropPath({
    targets,
    durationSeconds,
    cutsSeconds,
    cropWidthFraction: CROP_WIDTH,
    deadZoneFraction: DEAD_ZONE,
    maxPanSpeedPerSecond: MAX_SPEED,
  });
}

/** Segments between consecutive points: their speed, and whether they are jumps. */
function segments(path: CropPathPoint[]) {
  return path.slice(1).map((to, index) => {
    const from = path[index]!;
    const seconds = to.timeSeconds - from.timeSeconds;
    return { from, to, seconds, speed: seconds > 0 ? Math.abs(to.centerX - from.centerX) / seconds : null };
  });
}

// Deterministic jitter so the test cannot pass or fail by luck.
function jitter(timeSeconds: number, amplitude: number): number {
  return amplitude * Math.sin(timeSeconds * 12.9898) * Math.cos(timeSeconds * 4.1414);
}

describe("planCropPath", () => {
  it("holds still while the subject jitters inside the dead zone", () => {
    const path = plan(
      sampleTargets(10, (t) => 0.42 + jitter(t, DEAD_ZONE * 0.8)),
      10,
    );
    const centers = path.map((point) => point.centerX);
    expect(Math.max(...centers) - Math.min(...centers)).toBeLessThan(1e-9);
    expect(centers[0]).toBeCloseTo(0.42, 1);
    expect(path).toHaveLength(2); // simplified to a single still segment
  });

  it("follows a subject that leaves the dead zone, never faster than the speed limit", () => {
    // The subject walks from 0.25 to 0.75 between 2 s and 4 s (0.25 widths/s, above the limit).
    const walk = (t: number) => (t < 2 ? 0.25 : t > 4 ? 0.75 : 0.25 + ((t - 2) / 2) * 0.5);
    const path = plan(sampleTargets(12, walk), 12);
    for (const segment of segments(path)) {
      expect(segment.speed).not.toBeNull(); // no jumps without a cut
      expect(segment.speed!).toBeLessThanOrEqual(MAX_SPEED + 1e-6);
    }
    expect(evaluateCropPath(path, 0)).toBeCloseTo(0.25, 2);
    expect(Math.abs(evaluateCropPath(path, 12) - 0.75)).toBeLessThanOrEqual(DEAD_ZONE);
    // It anticipates as much as it lags: the pan is under way before the subject reaches mid-frame.
    expect(evaluateCropPath(path, 3)).toBeGreaterThan(0.4);
    expect(evaluateCropPath(path, 3)).toBeLessThan(0.6);
    // Following keeps the walker in view nearly all the time; no still camera could.
    expect(shareOfTargetsInView(path, sampleTargets(12, walk), CROP_WIDTH)).toBeGreaterThan(0.9);
  });

  it("holds still where a still camera shows the subject as often as following it would", () => {
    // Swaying between 0.34 and 0.5: beyond the dead zone, but within one window's view.
    const sway = (t: number) => 0.42 + 0.08 * Math.sin(t * 1.3);
    const targets = sampleTargets(12, sway);
    const path = plan(targets, 12);
    expect(path).toHaveLength(2);
    expect(path[0]?.centerX).toBe(path[1]?.centerX);
    expect(path[0]?.centerX).toBeCloseTo(0.42, 1);
    expect(shareOfTargetsInView(path, targets, CROP_WIDTH)).toBe(1);
  });

  it("holds still on a subject darting across the frame faster than the camera may pan", () => {
    // A pattern bouncing from side to side about once a second (as on the pipeline bench): a
    // camera held to the pan limit lags it, swings to and fro, and keeps it in view no more
    // often than a still one.
    const bounce = (t: number) => 0.14 + 0.72 * (0.5 + 0.5 * Math.sin(t * 3.1));
    const targets = sampleTargets(18, bounce);
    const path = plan(targets, 18);
    expect(path).toHaveLength(2);
    expect(path[0]?.centerX).toBe(path[1]?.centerX);
    const share = shareOfTargetsInView(path, targets, CROP_WIDTH)!;
    // No still position keeps it in view much more than a third of the time.
    for (let centerX = CROP_WIDTH / 2; centerX <= 1 - CROP_WIDTH / 2; centerX += 0.01) {
      const still = [
        { timeSeconds: 0, centerX },
        { timeSeconds: 18, centerX },
      ];
      expect(shareOfTargetsInView(still, targets, CROP_WIDTH)).toBeLessThanOrEqual(share);
    }
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.45);
  });

  it("jumps only at a scene cut, and only when the subject moved across it", () => {
    const path = plan(
      sampleTargets(10, (t) => (t < 5 ? 0.2 : 0.8)),
      10,
      [5, 42 /* outside the clip: ignored */],
    );
    const jumps = segments(path).filter((segment) => segment.seconds === 0);
    expect(jumps).toHaveLength(1);
    expect(jumps[0]?.from.timeSeconds).toBe(5);
    expect(evaluateCropPath(path, 4.99)).toBeCloseTo(0.2, 2);
    expect(evaluateCropPath(path, 5)).toBeCloseTo(0.8, 2);
    for (const segment of segments(path)) {
      if (segment.speed !== null) expect(segment.speed).toBeLessThanOrEqual(MAX_SPEED + 1e-6);
    }
  });

  it("keeps the window inside the frame and falls back to the clip's median subject without one", () => {
    const edge = plan(
      sampleTargets(4, () => 0.01),
      4,
    );
    for (const point of edge) expect(point.centerX).toBeCloseTo(CROP_WIDTH / 2, 6);

    // Second shot has no subject at all: it uses the clip's median rather than snapping to 0.5.
    const gaps = plan(
      sampleTargets(8, (t) => (t < 4 ? 0.3 : null)),
      8,
      [4],
    );
    expect(evaluateCropPath(gaps, 6)).toBeCloseTo(0.3, 2);
  });

  it("ignores an isolated wrong face detection at 1 fps too (the median filter spans time, not samples)", () => {
    const path = plan(
      sampleTargets(10, (t) => (t === 5 ? 0.9 : 0.5), 1),
      10,
    );
    expect(path.length).toBeGreaterThan(0);
    for (const point of path) expect(point.centerX).toBeCloseTo(0.5, 6);
    expect(evaluateCropPath(path, 5)).toBeCloseTo(0.5, 6);
  });

  it("ignores isolated wrong detections (median filter)", () => {
    const path = plan(
      sampleTargets(6, (t) => (Math.abs(t - 3) < 0.01 ? 0.9 : 0.5)),
      6,
    );
    expect(path.length).toBeGreaterThan(0);
    for (const point of path) expect(point.centerX).toBeCloseTo(0.5, 6);
    expect(evaluateCropPath(path, 3)).toBeCloseTo(0.5, 6);
  });
});

describe("shareOfTargetsInView", () => {
  it("counts the targets with a known centre in the middle 70% of the window, or beyond it up to the frame's edge", () => {
    const centred = [
      { timeSeconds: 0, centerX: 0.5 },
      { timeSeconds: 4, centerX: 0.5 },
    ];
    const reach = (0.7 * CROP_WIDTH) / 2;
    const targets: SubjectTarget[] = [
      { timeSeconds: 0, centerX: 0.5 },
      { timeSeconds: 1, centerX: 0.5 + reach - 0.001 },
      { timeSeconds: 2, centerX: 0.5 - reach - 0.001 },
      { timeSeconds: 3, centerX: null },
    ];
    expect(shareOfTargetsInView(centred, targets, CROP_WIDTH)).toBeCloseTo(2 / 3, 9);
    expect(shareOfTargetsInView(centred, [{ timeSeconds: 0, centerX: null }], CROP_WIDTH)).toBeNull();

    // A window against the frame's left edge shows a subject right at that edge.
    const leftmost = CROP_WIDTH / 2;
    const atTheEdge = [
      { timeSeconds: 0, centerX: leftmost },
      { timeSeconds: 4, centerX: leftmost },
    ];
    const edgeTargets = [0.01, leftmost + reach - 0.001, leftmost + reach + 0.001].map((centerX, index) => ({
      timeSeconds: index,
      centerX,
    }));
    expect(shareOfTargetsInView(atTheEdge, edgeTargets, CROP_WIDTH)).toBeCloseTo(2 / 3, 9);
  });
});

describe("highlightsInView", () => {
  // A camera panning from 0.3 to 0.5 over 2 s; the subject darts out to 0.9 at 1 s.
  const path: CropPathPoint[] = [
    { timeSeconds: 0, centerX: 0.3 },
    { timeSeconds: 2, centerX: 0.5 },
  ];
  const targets: SubjectTarget[] = [
    { timeSeconds: 0, centerX: 0.32 },
    { timeSeconds: 1, centerX: 0.9 },
    { timeSeconds: 2, centerX: 0.48 },
    { timeSeconds: 3, centerX: null },
  ];

  it("keeps the moments the crop has its subject in view, however strong the others", () => {
    const highlights = [
      { timeSeconds: 0, weight: 0.4 },
      { timeSeconds: 1, weight: 0.9 },
      { timeSeconds: 2, weight: 0.5 },
      { timeSeconds: 3, weight: 1 },
    ];
    expect(highlightsInView(highlights, path, targets, CROP_WIDTH)).toEqual([
      { timeSeconds: 0, weight: 0.4 },
      { timeSeconds: 2, weight: 0.5 },
    ]);
  });

  it("keeps them all when the subject is in view at none of them", () => {
    const highlights = [{ timeSeconds: 1, weight: 0.9 }];
    expect(highlightsInView(highlights, path, targets, CROP_WIDTH)).toEqual(highlights);
  });
});

describe("buildCropCenterExpression", () => {
  // The expression uses only numbers, t, + - * and ffmpeg's clip()/gte(), so it can be checked
  // by evaluating it as JavaScript with those two functions defined as ffmpeg defines them.
  function evaluateExpression(expression: string, t: number): number {
    const clip = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
    const gte = (a: number, b: number) => (a >= b ? 1 : 0);
    expect(expression).toMatch(/^[-+*0-9.,()tclipgte]+$/);
    return new Function("t", "clip", "gte", `return ${expression};`)(t, clip, gte) as number;
  }

  it("evaluates to the planned path at every time, including across a jump", () => {
    const path = plan(
      sampleTargets(10, (t) => (t < 5 ? 0.2 + 0.08 * t : 0.85 - 0.05 * (t - 5))),
      10,
      [5],
    );
    const expression = buildCropCenterExpression(path);
    for (let t = 0; t <= 10; t += 0.05) {
      expect(evaluateExpression(expression, t)).toBeCloseTo(evaluateCropPath(path, t), 3);
    }
  });

  it("is a constant for a still path", () => {
    expect(
      buildCropCenterExpression([
        { timeSeconds: 0, centerX: 0.4 },
        { timeSeconds: 10, centerX: 0.4 },
      ]),
    ).toBe("0.4");
    expect(buildCropCenterExpression([])).toBe("0.5");
  });
});
