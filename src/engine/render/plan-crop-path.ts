/**
 * The virtual camera for a 9:16 crop: turns noisy per-sample subject positions into a smooth
 * horizontal path that a viewer does not notice. Positions are fractions of the source width
 * (0 = left edge, 1 = right edge) of the crop window's centre; times are seconds from the clip's
 * start.
 *
 *  - dead zone: the camera holds still while the subject drifts within it;
 *  - limited pan speed: when it moves, it eases towards the subject no faster than a maximum;
 *  - cuts: a jump (a discontinuity) happens only at a scene cut, where the viewer expects one;
 *  - a still camera where it frames the subject as often as following would: a subject that
 *    darts about faster than the pan limit only drags a following camera to and fro.
 *
 * Each shot is followed twice, forwards and backwards in time, and the two paths are averaged:
 * the result starts panning before the subject moves as much as after (no lag), and both
 * limits still hold, since an average of two paths within a speed limit is within it too.
 */
export type SubjectTarget = { timeSeconds: number; centerX: number | null };

/** Sorted by time; two consecutive points at the same time mark a jump at a cut. */
export type CropPathPoint = { timeSeconds: number; centerX: number };

export type PlanCropPathOptions = {
  targets: SubjectTarget[];
  durationSeconds: number;
  /** Scene cuts, seconds from the clip's start; only those inside the clip matter. */
  cutsSeconds: number[];
  /** Crop window width as a fraction of the source width (0.316 for 16:9 → 9:16). */
  cropWidthFraction: number;
  /** Half-width of the dead zone, in source widths; default 15% of the crop width. */
  deadZoneFraction?: number;
  /** Pan speed limit, source widths per second; default 60% of the crop width per second. */
  maxPanSpeedPerSecond?: number;
  /** Resolution of the planned path before simplification. */
  stepSeconds?: number;
  /** Points closer than this to the straight line through their neighbours are dropped. */
  simplifyTolerance?: number;
};

/** Shortest shot the camera plans separately; closer cuts are merged (flash frames, dissolves). */
const MIN_SHOT_SECONDS = 0.5;
/**
 * Targets are median-filtered over ±1 s to drop one-off detections: three face samples at 1 fps,
 * nine motion samples at 4 fps. A median does not lag a steady movement.
 */
const MEDIAN_HALF_WINDOW_SECONDS = 1;
/** When moving, the camera closes this fraction of the remaining distance per second (ease-out). */
const EASE_PER_SECOND = 2.5;

export function planCropPath({
  targets,
  durationSeconds,
  cutsSeconds,
  cropWidthFraction,
  deadZoneFraction = 0.15 * cropWidthFraction,
  maxPanSpeedPerSecond = 0.6 * cropWidthFraction,
  stepSeconds = 0.1,
  simplifyTolerance = 0.0015,
}: PlanCropPathOptions): CropPathPoint[] {
  const minCenter = Math.min(0.5, cropWidthFraction / 2);
  const maxCenter = 1 - minCenter;
  const clampCenter = (value: number) => Math.min(maxCenter, Math.max(minCenter, value));
  // Where the subject is, and where the window's centre would be to centre on it.
  const seen = targetsSeen(targets).sort((a, b) => a.timeSeconds - b.timeSeconds);
  const valid = seen.map((target) => ({
    timeSeconds: target.timeSeconds,
    centerX: clampCenter(target.centerX),
  }));
  const fallbackCenter = valid.length > 0 ? median(valid.map((target) => target.centerX)) : 0.5;

  const shots = splitIntoShots(durationSeconds, cutsSeconds);
  const path: CropPathPoint[] = [];
  for (const [shotStart, shotEnd] of shots) {
    // The last shot includes the clip's end (a sample may fall on it).
    const isInShot = (target: CropPathPoint) =>
      target.timeSeconds >= shotStart &&
      (target.timeSeconds < shotEnd || (shotEnd === durationSeconds && target.timeSeconds === shotEnd));
    const inShot = valid.filter(isInShot);
    const smoothed = medianFilter(inShot, MEDIAN_HALF_WINDOW_SECONDS);
    const times = gridTimes(shotStart, shotEnd, stepSeconds);
    const wanted = times.map((time) => (smoothed.length > 0 ? interpolate(smoothed, time) : fallbackCenter));
    const follow = { deadZoneFraction, maxPanSpeedPerSecond, stepTimes: times };
    const forward = followTargets(wanted, follow);
    const backward = followTargets([...wanted].reverse(), {
      ...follow,
      stepTimes: [...times].reverse().map((time) => -time),
    }).reverse();
    const shotPath = times.map((timeSeconds, index) => ({
      timeSeconds,
      centerX: clampCenter(((forward[index] ?? 0.5) + (backward[index] ?? 0.5)) / 2),
    }));
    const seenInShot = seen.filter(isInShot);
    const still = bestStillCenter(seenInShot, cropWidthFraction, clampCenter);
    const followedShare = shareOfTargetsInView(shotPath, seenInShot, cropWidthFraction) ?? 1;
    path.push(
      ...(still && still.share >= followedShare
        ? [
            { timeSeconds: shotStart, centerX: still.centerX },
            { timeSeconds: shotEnd, centerX: still.centerX },
          ]
        : simplifyPath(shotPath, simplifyTolerance)),
    );
  }
  return path;
}

/**
 * The subject is in view when its centre is in the middle 70% of the window, so that "in" is not
 * half cut off at the window's edge; at an edge of the frame, the window's whole width up to it.
 */
const IN_VIEW_SHARE_OF_WINDOW = 0.7;

const FRAME_EDGE_TOLERANCE = 1e-6;

function isInView(subjectX: number, windowCenterX: number, cropWidthFraction: number): boolean {
  const half = cropWidthFraction / 2;
  const margin = ((1 - IN_VIEW_SHARE_OF_WINDOW) * cropWidthFraction) / 2;
  const left = windowCenterX - half;
  const right = windowCenterX + half;
  const from = left <= FRAME_EDGE_TOLERANCE ? Number.NEGATIVE_INFINITY : left + margin;
  const to = right >= 1 - FRAME_EDGE_TOLERANCE ? Number.POSITIVE_INFINITY : right - margin;
  return subjectX >= from - FRAME_EDGE_TOLERANCE && subjectX <= to + FRAME_EDGE_TOLERANCE;
}

/** The targets where the subject was seen (a finite centre). */
function targetsSeen(targets: SubjectTarget[]): CropPathPoint[] {
  return targets.filter(
    (target): target is CropPathPoint => target.centerX !== null && Number.isFinite(target.centerX),
  );
}

/**
 * The share of the targets with a known centre that the path keeps in view; null with none.
 * How well a crop shows its subject: a subject that moves faster than a camera may pan is in
 * view only part of the time, whichever way the camera moves.
 */
export function shareOfTargetsInView(
  path: CropPathPoint[],
  targets: SubjectTarget[],
  cropWidthFraction: number,
): number | null {
  const known = targetsSeen(targets);
  if (known.length === 0) return null;
  return targetsInView(path, targets, cropWidthFraction).length / known.length;
}

/** The targets seen (a known centre) that the path has in view when they were seen. */
function targetsInView(path: CropPathPoint[], targets: SubjectTarget[], cropWidthFraction: number) {
  return targetsSeen(targets).filter((target) =>
    isInView(target.centerX, evaluateCropPath(path, target.timeSeconds), cropWidthFraction),
  );
}

/**
 * The moments to take a crop's thumbnail from: those the path has the subject in view at (a
 * target seen then, in view). A subject faster than the camera may pan is out of view part of
 * the time, and a thumbnail there shows it cut off at the edge. All of them where it is in
 * view at none.
 */
export function highlightsInView<Highlight extends { timeSeconds: number }>(
  highlights: readonly Highlight[],
  path: CropPathPoint[],
  targets: SubjectTarget[],
  cropWidthFraction: number,
): Highlight[] {
  const inViewAt = new Set(
    targetsInView(path, targets, cropWidthFraction).map((target) => target.timeSeconds),
  );
  const inView = highlights.filter((highlight) => inViewAt.has(highlight.timeSeconds));
  return inView.length > 0 ? inView : [...highlights];
}

/**
 * Where a still camera keeps the most targets in view (of those nearest the targets' median,
 * where several do equally well), and that share; null without targets.
 */
function bestStillCenter(
  targets: CropPathPoint[],
  cropWidthFraction: number,
  clampCenter: (centerX: number) => number,
): { centerX: number; share: number } | null {
  if (targets.length === 0) return null;
  const reach = (IN_VIEW_SHARE_OF_WINDOW * cropWidthFraction) / 2;
  const middle = clampCenter(median(targets.map((target) => target.centerX)));
  // A position that keeps the most targets in view can be moved until one of them is at the
  // edge of its view, or the window at the frame's: those positions are the only candidates.
  const candidates = [
    middle,
    0,
    1,
    ...targets.flatMap((target) => [target.centerX - reach, target.centerX + reach]),
  ].map(clampCenter);
  let best: { centerX: number; share: number } | null = null;
  for (const centerX of candidates) {
    const share =
      targets.filter((target) => isInView(target.centerX, centerX, cropWidthFraction)).length /
      targets.length;
    if (
      !best ||
      share > best.share ||
      (share === best.share && Math.abs(centerX - middle) < Math.abs(best.centerX - middle))
    ) {
      best = { centerX, share };
    }
  }
  return best;
}

/** The crop centre at a time: linear between points, the later value from a jump's time on. */
export function evaluateCropPath(path: CropPathPoint[], timeSeconds: number): number {
  const first = path[0];
  if (!first) return 0.5;
  if (timeSeconds <= first.timeSeconds) return first.centerX;
  for (let index = path.length - 1; index >= 0; index -= 1) {
    const point = path[index]!;
    if (point.timeSeconds <= timeSeconds) {
      const next = path[index + 1];
      if (!next || next.timeSeconds === point.timeSeconds) return point.centerX;
      const fraction = (timeSeconds - point.timeSeconds) / (next.timeSeconds - point.timeSeconds);
      return point.centerX + fraction * (next.centerX - point.centerX);
    }
  }
  return first.centerX;
}

/** Shot boundaries [start, end) from the cuts strictly inside the clip, merging very short shots. */
export function splitIntoShots(durationSeconds: number, cutsSeconds: number[]): [number, number][] {
  const boundaries = [0];
  for (const cut of [...cutsSeconds].sort((a, b) => a - b)) {
    const previous = boundaries.at(-1) ?? 0;
    if (cut - previous >= MIN_SHOT_SECONDS && durationSeconds - cut >= MIN_SHOT_SECONDS) boundaries.push(cut);
  }
  boundaries.push(durationSeconds);
  return boundaries.slice(1).map((end, index) => [boundaries[index] ?? 0, end]);
}

function gridTimes(start: number, end: number, step: number): number[] {
  const times: number[] = [];
  const count = Math.max(1, Math.round((end - start) / step));
  for (let index = 0; index <= count; index += 1) times.push(start + ((end - start) * index) / count);
  return times;
}

/**
 * One pass of the camera: it rests until the subject leaves the dead zone, then eases towards
 * it within the speed limit, and rests again once it has nearly caught up (hysteresis, so it
 * does not twitch at the zone's edge). It starts where a straight line fitted to the first
 * second's targets puts the subject at the start: jitter averages out, and a subject already
 * moving is not biased towards where it will be.
 */
function followTargets(
  wanted: number[],
  options: { deadZoneFraction: number; maxPanSpeedPerSecond: number; stepTimes: number[] },
): number[] {
  const { deadZoneFraction, maxPanSpeedPerSecond, stepTimes } = options;
  const startTime = stepTimes[0] ?? 0;
  let position = openingPosition(
    wanted,
    stepTimes.map((time) => Math.abs(time - startTime)),
  );
  let moving = false;
  return wanted.map((target, index) => {
    const stepSeconds = index === 0 ? 0 : Math.abs((stepTimes[index] ?? 0) - (stepTimes[index - 1] ?? 0));
    const error = target - position;
    if (!moving && Math.abs(error) > deadZoneFraction) moving = true;
    if (moving && stepSeconds > 0) {
      const eased = error * Math.min(1, EASE_PER_SECOND * stepSeconds);
      const limit = maxPanSpeedPerSecond * stepSeconds;
      position += Math.max(-limit, Math.min(limit, eased));
      if (Math.abs(target - position) < deadZoneFraction * 0.2) moving = false;
    }
    return position;
  });
}

/**
 * A median over a window centred on each point. Near the shot's edges the window shrinks to stay
 * centred: a one-sided window would pull a moving subject's position towards the interior.
 */
function medianFilter(points: CropPathPoint[], halfWindowSeconds: number): CropPathPoint[] {
  const first = points[0]?.timeSeconds ?? 0;
  const last = points.at(-1)?.timeSeconds ?? 0;
  return points.map((point) => {
    const half = Math.min(halfWindowSeconds, point.timeSeconds - first, last - point.timeSeconds) + 1e-6;
    return {
      timeSeconds: point.timeSeconds,
      centerX: median(
        points
          .filter((other) => Math.abs(other.timeSeconds - point.timeSeconds) <= half)
          .map((other) => other.centerX),
      ),
    };
  });
}

/** Least-squares line through the targets within 1 s of the start, evaluated at the start. */
function openingPosition(wanted: number[], secondsFromStart: number[]): number {
  let count = 0;
  let sumT = 0;
  let sumX = 0;
  let sumTT = 0;
  let sumTX = 0;
  wanted.forEach((value, index) => {
    const t = secondsFromStart[index] ?? Number.POSITIVE_INFINITY;
    if (t > 1 + 1e-6) return;
    count += 1;
    sumT += t;
    sumX += value;
    sumTT += t * t;
    sumTX += t * value;
  });
  if (count === 0) return wanted[0] ?? 0.5;
  const denominator = count * sumTT - sumT * sumT;
  if (count < 3 || Math.abs(denominator) < 1e-9) return sumX / count;
  const slope = (count * sumTX - sumT * sumX) / denominator;
  return (sumX - slope * sumT) / count;
}

function interpolate(points: CropPathPoint[], timeSeconds: number): number {
  return evaluateCropPath(points, timeSeconds);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0.5;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0.5)
    : ((sorted[middle - 1] ?? 0.5) + (sorted[middle] ?? 0.5)) / 2;
}

/** Ramer–Douglas–Peucker on (time, centre): keeps the path's shape with far fewer points. */
export function simplifyPath(points: CropPathPoint[], tolerance: number): CropPathPoint[] {
  if (points.length <= 2) return points;
  const first = points[0]!;
  const last = points.at(-1)!;
  let worstIndex = -1;
  let worstDistance = tolerance;
  for (let index = 1; index < points.length - 1; index += 1) {
    const point = points[index]!;
    const fraction = (point.timeSeconds - first.timeSeconds) / (last.timeSeconds - first.timeSeconds);
    const onLine = first.centerX + fraction * (last.centerX - first.centerX);
    const distance = Math.abs(point.centerX - onLine);
    if (distance > worstDistance) {
      worstDistance = distance;
      worstIndex = index;
    }
  }
  if (worstIndex === -1) return [first, last];
  const left = simplifyPath(points.slice(0, worstIndex + 1), tolerance);
  const right = simplifyPath(points.slice(worstIndex), tolerance);
  return [...left.slice(0, -1), ...right];
}
