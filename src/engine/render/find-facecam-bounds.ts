import type { FrameRegion } from "@/media/vertical-crop-args";
import type { ChangeMap } from "./change-map";

/** Each edge of a face cam's box that was found, in fractions of the frame. */
export type FacecamBounds = { left?: number; right?: number; top?: number; bottom?: number };

/** Pixels averaged on each side of a candidate edge (of the 256-px analysis frame)... */
const STRIP_PIXELS = 2;
/** ...this many pixels away from it, over the edge's blur. */
const BLUR_PIXELS = 1;
/** Steps at least this share of the strongest count as the same edge (a blurred one spreads). */
const NEAR_STRONGEST_SHARE = 0.8;
/**
 * An edge: just outside, the picture changes at least EDGE_CHANGE_RATIO times as much as just
 * inside, and by at least MIN_EDGE_STEP luma levels more (above compression noise: a still
 * picture's pixels change by well under a level). Measured on the render tests' face cam over a
 * slowly shifting test pattern: cam 0.3–0.8, game 2.3 at 4 fps; 0–2 and 7–25 between keyframes
 * 2 s apart. A noisy webcam beside a game that barely moves shows no edge (a box around the face).
 */
const MIN_EDGE_STEP = 1.5;
const EDGE_CHANGE_RATIO = 2.5;
/**
 * Edges are looked for from this share of the face's size inside its box outwards: a webcam
 * close-up fills its cam, and the detector's box may reach past the cam's edge...
 */
const EDGE_SEARCH_INSIDE_FACE = 0.25;
/** ...and no farther than this many face sizes from it: a cam is rarely much bigger than that. */
export const MAX_CAM_REACH_IN_FACES = 2.5;
/**
 * The profiles are read along the middle of the face box, this share of its size in from each
 * side: always inside the cam (a close-up's box can reach past the cam's edge), and never
 * across the game beyond the cam's other edges.
 */
const BAND_INSET_IN_FACES = 0.2;

/**
 * The edges of the face cam around `face` (its median box): where the change map steps from
 * the cam's still picture to the game's changing one. A side where no such step is found (the
 * cam runs to the frame's edge, or the game is still there) is left out.
 */
export function findFacecamBounds(changes: ChangeMap, face: FrameRegion): FacecamBounds {
  const { width, height } = changes;
  const faceLeft = face.x * width;
  const faceRight = (face.x + face.width) * width;
  const faceTop = face.y * height;
  const faceBottom = (face.y + face.height) * height;
  const faceWidth = face.width * width;
  const faceHeight = face.height * height;

  // Mean change per column over the middle rows of the face, and per row over its middle columns.
  const rows = clampRange(
    faceTop + BAND_INSET_IN_FACES * faceHeight,
    faceBottom - BAND_INSET_IN_FACES * faceHeight,
    height,
  );
  const columns = clampRange(
    faceLeft + BAND_INSET_IN_FACES * faceWidth,
    faceRight - BAND_INSET_IN_FACES * faceWidth,
    width,
  );
  const columnProfile = Array.from({ length: width }, (_, x) =>
    meanOver(rows, (y) => changes.meanChange[y * width + x]!),
  );
  const rowProfile = Array.from({ length: height }, (_, y) =>
    meanOver(columns, (x) => changes.meanChange[y * width + x]!),
  );

  // The edges before the face (left, top) and after it (right, bottom) along one profile.
  const edgesAround = (profile: number[], faceStart: number, faceEnd: number, faceSize: number) => ({
    before: findEdge(
      profile,
      faceStart + EDGE_SEARCH_INSIDE_FACE * faceSize,
      faceStart - MAX_CAM_REACH_IN_FACES * faceSize,
      -1,
    ),
    after: findEdge(
      profile,
      faceEnd - EDGE_SEARCH_INSIDE_FACE * faceSize,
      faceEnd + MAX_CAM_REACH_IN_FACES * faceSize,
      1,
    ),
  });
  const { before: left, after: right } = edgesAround(columnProfile, faceLeft, faceRight, faceWidth);
  const { before: top, after: bottom } = edgesAround(rowProfile, faceTop, faceBottom, faceHeight);
  return {
    ...(left !== null && { left: left / width }),
    ...(right !== null && { right: right / width }),
    ...(top !== null && { top: top / height }),
    ...(bottom !== null && { bottom: bottom / height }),
  };
}

/**
 * The cam's edge between `nearest` and `farthest` (pixel positions; `direction` −1 looks left
 * or up, +1 right or down): the step from still (towards the face) to changing (away from it),
 * compared across a pixel or two of blur (scaling, compression) either side of each boundary.
 * Of the boundaries stepping nearly as much as the strongest, the one nearest the face wins,
 * and the edge is put inside its blur: a cam's edge a pixel short is unseen, a sliver of game
 * along the panel is not. As a position in the map: the cam's first pixel for a left or top
 * edge, the pixel after its last for a right or bottom one. Null when nothing there steps.
 */
function findEdge(profile: number[], nearest: number, farthest: number, direction: -1 | 1): number | null {
  const candidates: { boundary: number; step: number }[] = [];
  const first = direction < 0 ? Math.floor(nearest) : Math.ceil(nearest);
  const last = direction < 0 ? Math.ceil(farthest) : Math.floor(farthest);
  const reach = BLUR_PIXELS + STRIP_PIXELS;
  const isStep = (still: number, changing: number) =>
    changing - still >= MIN_EDGE_STEP && changing >= EDGE_CHANGE_RATIO * still;
  let stillest = Number.POSITIVE_INFINITY;
  for (let boundary = first; direction < 0 ? boundary >= last : boundary <= last; boundary += direction) {
    if (boundary < reach || boundary > profile.length - reach) continue;
    const below = mean(profile.slice(boundary - reach, boundary - BLUR_PIXELS));
    const above = mean(profile.slice(boundary + BLUR_PIXELS, boundary + reach));
    const [inside, outside] = direction < 0 ? [above, below] : [below, above];
    // Once the side towards the face changes like the game, the cam is behind: no edge lies
    // beyond a stretch of game (a still patch farther out is part of the game).
    stillest = Math.min(stillest, inside);
    if (isStep(stillest, inside)) break;
    if (isStep(inside, outside)) candidates.push({ boundary, step: outside - inside });
  }
  const strongest = Math.max(...candidates.map((candidate) => candidate.step));
  // Candidates are in order from the face outwards.
  const edge = candidates.find((candidate) => candidate.step >= NEAR_STRONGEST_SHARE * strongest);
  return edge ? edge.boundary - direction * BLUR_PIXELS : null;
}

function clampRange(from: number, to: number, size: number): { from: number; to: number } {
  const start = Math.max(0, Math.floor(from));
  return { from: start, to: Math.max(start + 1, Math.min(size, Math.ceil(to))) };
}

function meanOver(range: { from: number; to: number }, valueAt: (index: number) => number): number {
  let total = 0;
  for (let index = range.from; index < range.to; index += 1) total += valueAt(index);
  return total / (range.to - range.from);
}

function mean(values: number[]): number {
  return values.reduce((total, value) => total + value, 0) / Math.max(1, values.length);
}
