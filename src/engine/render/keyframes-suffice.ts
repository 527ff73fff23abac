import { ANALYSIS_FRAMES_PER_SECOND } from "./analyze-subject";

/**
 * Faces on keyframes this close together are enough to steer the crop, whatever moves between
 * them: the path is median-filtered over ±1 s and eased anyway, so samples 2 s apart set it
 * nearly as well as the 4 fps pass's one a second. Streaming encoders and phones put keyframes
 * every 1–2 s.
 */
export const DENSE_KEYFRAME_GAP_SECONDS = 2;
/**
 * Below this per-second motion (the signal pass's mean inter-frame difference, 0..1) a stretch
 * is still: measured on the bench source, a static card 0.001, cuts between still shots 0.002
 * (motion ignores the cuts themselves), a small pattern drifting slowly 0.005, a bouncing one
 * 0.09.
 */
export const STILL_MOTION = 0.003;
/**
 * A stretch between seen pictures shorter than this holds nothing to miss: the 4 fps pass would
 * not sample inside it either. (A clip often ends on a cut, one frame after its keyframe.)
 */
const NEGLIGIBLE_STRETCH_SECONDS = 1 / ANALYSIS_FRAMES_PER_SECOND;
/** A cut this close to a keyframe is that keyframe (fast-mode cut times are keyframe times). */
const CUT_AT_KEYFRAME_SECONDS = 0.1;

export type KeyframesSufficeOptions = {
  /** The keyframes' times, seconds from the segment's start. */
  keyframeTimesSeconds: number[];
  /** Whether faces were found on them. */
  hasFaces: boolean;
  durationSeconds: number;
  /** The source's per-second motion (its signal curve's `motion`); unknown counts as moving. */
  motionPerSecond: number[] | undefined;
  /** Where the segment starts in the source, to index `motionPerSecond`. */
  startSeconds: number;
  /** Scene cuts, seconds from the segment's start. */
  cutsSeconds: number[];
};

export type KeyframesVerdict = { suffice: boolean; reason: string };

/**
 * Whether the keyframes show the subject well enough to plan the crop, so the segment need not
 * be decoded again at 4 fps. They do when every stretch between two seen pictures (the segment's
 * start, each keyframe, its end) is either short enough — with faces to follow — or still, with
 * no scene cut inside it: a still stretch looks like the keyframe beside it. Without faces the
 * crop follows motion, which only consecutive frames show, so every stretch must be still (and
 * the layout is then `fit`: nothing to follow).
 */
export function keyframesSuffice(options: KeyframesSufficeOptions): KeyframesVerdict {
  const { hasFaces } = options;
  const missed = firstMissedChange(options);
  if (missed) {
    const reason = describeMissedChange(missed);
    return {
      suffice: false,
      reason: missed.kind === "motion" ? `${hasFaces ? "faces" : "no faces"}, and ${reason}` : reason,
    };
  }
  return {
    suffice: true,
    reason: hasFaces
      ? `faces on keyframes at most ${DENSE_KEYFRAME_GAP_SECONDS} s apart or still between`
      : "no faces on keyframes and a still picture",
  };
}

/**
 * Before any decoding: whether the keyframes could not suffice even with faces on every one of
 * them (they are far apart where the picture moves, or a cut falls between them), judged from
 * the source's keyframe times that the fast signal pass listed. Then the keyframe scan would
 * find nothing that changes the outcome, and the segment goes straight to the 4 fps pass.
 * Null when it cannot be told without looking at the keyframes.
 */
export function framesNeededWhateverTheFaces(
  options: Omit<KeyframesSufficeOptions, "keyframeTimesSeconds" | "hasFaces"> & {
    /** The source's keyframe times, seconds (all of them, or at least the segment's). */
    sourceKeyframesSeconds: number[] | undefined;
  },
): string | null {
  const { sourceKeyframesSeconds, startSeconds } = options;
  if (!sourceKeyframesSeconds) return null;
  const missed = firstMissedChange({
    ...options,
    keyframeTimesSeconds: sourceKeyframesSeconds.map((time) => time - startSeconds),
    hasFaces: true,
  });
  return missed ? describeMissedChange(missed) : null;
}

/** What the keyframes would miss: nothing to look at, a cut, or movement between two of them. */
type MissedChange =
  | { kind: "no keyframe" }
  | { kind: "cut"; atSeconds: number }
  | { kind: "motion"; fromSeconds: number; toSeconds: number };

/**
 * The first stretch between two seen pictures (the segment's start, each keyframe, its end)
 * that is neither short enough — with faces to follow — nor still with no scene cut inside it.
 */
function firstMissedChange(options: KeyframesSufficeOptions): MissedChange | null {
  const { keyframeTimesSeconds, hasFaces, durationSeconds, motionPerSecond, startSeconds, cutsSeconds } =
    options;
  const times = keyframeTimesSeconds.filter((time) => time >= 0 && time <= durationSeconds);
  if (times.length === 0) return { kind: "no keyframe" };
  const denseGapSeconds = hasFaces ? DENSE_KEYFRAME_GAP_SECONDS : 0;
  const seen = [0, ...times, durationSeconds];
  for (let index = 1; index < seen.length; index += 1) {
    const from = seen[index - 1]!;
    const to = seen[index]!;
    if (to - from <= Math.max(denseGapSeconds, NEGLIGIBLE_STRETCH_SECONDS)) continue;
    const unseenCut = cutsSeconds.find(
      (cut) => cut > from + CUT_AT_KEYFRAME_SECONDS && cut < to - CUT_AT_KEYFRAME_SECONDS,
    );
    if (unseenCut !== undefined) return { kind: "cut", atSeconds: unseenCut };
    if (!isStill(motionPerSecond, startSeconds + from, startSeconds + to)) {
      return { kind: "motion", fromSeconds: from, toSeconds: to };
    }
  }
  return null;
}

function describeMissedChange(missed: MissedChange): string {
  switch (missed.kind) {
    case "no keyframe":
      return "no keyframe in the clip";
    case "cut":
      return `a cut at ${missed.atSeconds.toFixed(1)} s between keyframes`;
    case "motion":
      return `the picture moves between keyframes ${missed.fromSeconds.toFixed(1)}–${missed.toSeconds.toFixed(1)} s`;
  }
}

/**
 * Whether every second that overlaps [from, to] by a meaningful share is still. A second that
 * only grazes the stretch (the segment starts a few ms before a second boundary) does not count.
 */
function isStill(motionPerSecond: number[] | undefined, fromSeconds: number, toSeconds: number): boolean {
  if (!motionPerSecond) return false;
  const minOverlapSeconds = Math.min(0.25, (toSeconds - fromSeconds) / 2);
  for (let second = Math.floor(fromSeconds); second < toSeconds; second += 1) {
    const overlap = Math.min(toSeconds, second + 1) - Math.max(fromSeconds, second);
    if (overlap < minOverlapSeconds) continue;
    const motion = motionPerSecond[second];
    if (motion === undefined || !(motion < STILL_MOTION)) return false;
  }
  return true;
}
