import { median } from "@/engine/curve-math";
import type { FaceBox } from "@/engine/faces/face-detector";
import type { FrameRegion } from "@/media/vertical-crop-args";
import type { ChangeMap } from "./change-map";

// Where a face cam too small for the whole frame might be (still insets in a changing picture,
// places a small face was glimpsed), and the regions to cut out to look there more closely.

/**
 * The map is read in cells of this many pixels square (of the 256-px analysis frame): a webcam's
 * noise and a talking head's small movements average out, and the search stays cheap.
 */
const CELL_PIXELS = 2;
/**
 * A cell is still where it changes this many times less than the picture's median: a face cam
 * changed by 0.3–0.8 luma levels between 4 fps samples beside a game's 2.3 in the render tests
 * (0–2 against 7–25 between keyframes 2 s apart), as find-facecam-bounds measured.
 */
const STILL_RATIO = 2.5;
/** A face cam is at least this share of the frame (a 120×68 cam in 1080p)... */
const MIN_INSET_AREA_SHARE = 0.004;
/** ...and at most this: a bigger still patch is part of the picture, not an inset over it. */
const MAX_INSET_AREA_SHARE = 0.2;
/** Cams are 16:9, 4:3 or square; a long still strip is a bar, a ticker or a chat column. */
const MIN_INSET_ASPECT = 0.6;
const MAX_INSET_ASPECT = 2.5;
/**
 * The patch fills at least this share of its box. A cam is a block; a face moving inside it
 * leaves a hole that still keeps most of the box (the wall around the head).
 */
const MIN_FILL_SHARE = 0.5;
/** Insets looked at more closely, largest first: each costs face detection on every keyframe. */
const MAX_INSETS = 3;

/**
 * Still patches set into a picture that keeps changing — where a streamer's face cam would be,
 * when its face is too small for the detector on the whole frame (BlazeFace on the 256-px frame
 * misses faces under ~10% of the frame's height, ~110 px of 1080p: a 240×135 cam in 1080p, an
 * eighth of the width, went unseen, a 320×180 one was found). Boxes in fractions of the frame, largest first; none when the
 * picture is mostly still (nothing to set a cam apart from) or the map comes from one pair.
 */
export function findStillInsets(changes: ChangeMap, sourceAspect: number): FrameRegion[] {
  const columns = Math.floor(changes.width / CELL_PIXELS);
  const rows = Math.floor(changes.height / CELL_PIXELS);
  if (changes.pairs < 2 || columns < 4 || rows < 4) return [];
  const cells = new Float32Array(columns * rows);
  for (let row = 0; row < rows; row += 1) {
    for (let column = 0; column < columns; column += 1) {
      let total = 0;
      for (let dy = 0; dy < CELL_PIXELS; dy += 1) {
        const offset = (row * CELL_PIXELS + dy) * changes.width + column * CELL_PIXELS;
        for (let dx = 0; dx < CELL_PIXELS; dx += 1) total += changes.meanChange[offset + dx]!;
      }
      cells[row * columns + column] = total / (CELL_PIXELS * CELL_PIXELS);
    }
  }
  const medianChange = median(Array.from(cells)) ?? 0;
  // Compression noise alone moves a still picture's pixels by well under a level.
  if (!(medianChange >= 1)) return [];
  const still = Uint8Array.from(cells, (change) => (change * STILL_RATIO <= medianChange ? 1 : 0));

  const insets: { region: FrameRegion; cellCount: number }[] = [];
  const seen = new Uint8Array(cells.length);
  for (let start = 0; start < cells.length; start += 1) {
    if (!still[start] || seen[start]) continue;
    const patch = floodFill(still, seen, columns, rows, start);
    const boxColumns = patch.right - patch.left + 1;
    const boxRows = patch.bottom - patch.top + 1;
    const areaShare = (boxColumns * boxRows) / cells.length;
    // In the source's pixels, as the cam is framed: the map's cells are not square there.
    const aspect = (boxColumns / columns / (boxRows / rows)) * sourceAspect;
    if (
      areaShare < MIN_INSET_AREA_SHARE ||
      areaShare > MAX_INSET_AREA_SHARE ||
      aspect < MIN_INSET_ASPECT ||
      aspect > MAX_INSET_ASPECT ||
      patch.cellCount < MIN_FILL_SHARE * boxColumns * boxRows
    ) {
      continue;
    }
    insets.push({
      region: {
        x: patch.left / columns,
        y: patch.top / rows,
        width: boxColumns / columns,
        height: boxRows / rows,
      },
      cellCount: patch.cellCount,
    });
  }
  return insets
    .sort((a, b) => b.cellCount - a.cellCount)
    .slice(0, MAX_INSETS)
    .map((inset) => inset.region);
}

/**
 * A face at most this share of the frame's height was seen at the edge of what the detector
 * finds on the whole frame (~10%): on some samples and not others, as a cam's face is.
 */
const MAX_SMALL_FACE_HEIGHT = 0.15;
/**
 * Faces on this share of the samples were seen well enough on the whole frame (a face cam's is
 * on at least 80% of them): the plan already judged them, and a closer look would only cost.
 */
const SEEN_WELL_SHARE = 0.8;
/**
 * A place glimpsed on fewer samples than this share is a chance detection (a pattern, a passing
 * shape; the bench's bouncing card showed one "face" in 18 samples), not a cam the detector
 * keeps half-seeing.
 */
const MIN_GLIMPSED_SHARE = 0.2;
/** The cam around a glimpsed face: this many face sizes across (a webcam's head and shoulders). */
const CAM_AROUND_FACE_IN_FACES = 2.5;

/**
 * Where a cam might be around the small faces glimpsed on the whole frame (boxes in fractions of
 * the frame, at most MAX_INSETS, the most often seen first): where faces were found on some
 * samples only, they are looked at again, closer, before they are taken for ones that come and go.
 */
export function insetsAroundSmallFaces(faceSamples: { faces: FaceBox[] }[]): FrameRegion[] {
  const withFaces = faceSamples.filter((sample) => sample.faces.length > 0).length;
  if (withFaces >= SEEN_WELL_SHARE * faceSamples.length) return [];
  const small = faceSamples.flatMap((sample) =>
    sample.faces.filter((face) => face.height <= MAX_SMALL_FACE_HEIGHT),
  );
  const places: { region: FrameRegion; count: number }[] = [];
  for (const face of small) {
    const centreX = face.x + face.width / 2;
    const centreY = face.y + face.height / 2;
    const same = places.find(
      ({ region }) =>
        centreX > region.x &&
        centreX < region.x + region.width &&
        centreY > region.y &&
        centreY < region.y + region.height,
    );
    if (same) {
      same.count += 1;
      continue;
    }
    const width = face.width * CAM_AROUND_FACE_IN_FACES;
    const height = face.height * CAM_AROUND_FACE_IN_FACES;
    places.push({ region: { x: centreX - width / 2, y: centreY - height / 2, width, height }, count: 1 });
  }
  return places
    .filter((place) => place.count >= MIN_GLIMPSED_SHARE * faceSamples.length)
    .sort((a, b) => b.count - a.count)
    .slice(0, MAX_INSETS)
    .map(({ region }) => region);
}

/** Room kept around an inset when it is looked at closely: the face box may reach past a cam. */
const CLOSER_LOOK_MARGIN = 0.25;
/** A region looked at closely is at most this share of the frame: a bigger one is no closer. */
const MAX_CLOSER_LOOK_SHARE = 0.6;

/**
 * The parts of the frame to look at closely for these insets: each inset with a margin, grown
 * to the frame's own shape (the same share of its width and height, so it scales to an analysis
 * frame undistorted) and kept inside the frame. Regions that overlap become one around both, so
 * no face is looked for twice; one that comes out larger than MAX_CLOSER_LOOK_SHARE is left out.
 */
export function closerLookRegions(insets: FrameRegion[]): FrameRegion[] {
  const regions = insets.map((inset) => frameShapedAround(inset, 1 + 2 * CLOSER_LOOK_MARGIN));
  for (let first = 0; first < regions.length; first += 1) {
    for (let second = first + 1; second < regions.length; second += 1) {
      const a = regions[first]!;
      const b = regions[second]!;
      const overlaps =
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      if (!overlaps) continue;
      const x = Math.min(a.x, b.x);
      const y = Math.min(a.y, b.y);
      const union = {
        x,
        y,
        width: Math.max(a.x + a.width, b.x + b.width) - x,
        height: Math.max(a.y + a.height, b.y + b.height) - y,
      };
      regions[first] = frameShapedAround(union, 1);
      regions.splice(second, 1);
      // The grown region may now overlap one already passed: start over.
      first = -1;
      break;
    }
  }
  return regions.filter((region) => region.width <= MAX_CLOSER_LOOK_SHARE);
}

/** A region of the frame's shape, `scale` times the box's larger side, centred on it, inside the frame. */
function frameShapedAround(box: FrameRegion, scale: number): FrameRegion {
  const share = Math.min(1, Math.max(box.width, box.height) * scale);
  const place = (start: number, size: number) =>
    Math.min(1 - share, Math.max(0, start + size / 2 - share / 2));
  return { x: place(box.x, box.width), y: place(box.y, box.height), width: share, height: share };
}

/** The still cells joined to `start` side by side (marked in `seen`), with their bounding box. */
function floodFill(still: Uint8Array, seen: Uint8Array, columns: number, rows: number, start: number) {
  const stack = [start];
  seen[start] = 1;
  let cellCount = 0;
  let left = columns;
  let right = -1;
  let top = rows;
  let bottom = -1;
  while (stack.length > 0) {
    const cell = stack.pop()!;
    const column = cell % columns;
    const row = (cell - column) / columns;
    cellCount += 1;
    left = Math.min(left, column);
    right = Math.max(right, column);
    top = Math.min(top, row);
    bottom = Math.max(bottom, row);
    const neighbours = [
      column > 0 ? cell - 1 : -1,
      column < columns - 1 ? cell + 1 : -1,
      row > 0 ? cell - columns : -1,
      row < rows - 1 ? cell + columns : -1,
    ];
    for (const next of neighbours) {
      if (next >= 0 && still[next] && !seen[next]) {
        seen[next] = 1;
        stack.push(next);
      }
    }
  }
  return { cellCount, left, right, top, bottom };
}
