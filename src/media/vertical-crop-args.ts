import { buildSegmentInputArgs } from "./cut-args";

export const VERTICAL_WIDTH = 1080;
export const VERTICAL_HEIGHT = 1920;

/**
 * The libx264 preset for renders, and for the bare baseline they are measured against. On two
 * cores a 30 s 1080×1920 `veryfast` encode takes 10–16 s; `faster`/`fast` cost 1.5–2× for a
 * small gain in size at equal quality, which platforms re-encode anyway.
 */
export const RENDER_X264_PRESET = "veryfast";

export type VerticalLayoutOptions =
  /** Follow the subject: a full-height 9:16 window whose left edge is `cropXExpression` (of t). */
  | { layout: "crop"; cropXExpression: string; sourceHeight: number }
  /** The whole frame, scaled to the width, between bands of a blurred, zoomed copy of itself. */
  | { layout: "fit"; sourceWidth: number; sourceHeight: number }
  /** A vertical source: scaled to fit 1080×1920, any margin filled the same way as `fit`. */
  | { layout: "native-vertical"; sourceWidth: number; sourceHeight: number }
  /**
   * A streamer's face cam in the top FACECAM_PANEL_HEIGHT rows, the middle of the picture at
   * full height below it.
   */
  | { layout: "facecam"; facecam: FacecamFraming; sourceWidth: number; sourceHeight: number };

/** Part of the source frame, in fractions of its width and height. */
export type FrameRegion = { x: number; y: number; width: number; height: number };

export type FacecamFraming = {
  /** What the top panel shows: the cam, or as much of it as the panel's shape holds. */
  shown: FrameRegion;
  /** The whole cam, which the picture below keeps clear of. */
  box: FrameRegion;
};

/** The face cam layout's top panel: a third of the frame, 1080×640 (27:16, about 16:9). */
export const FACECAM_PANEL_HEIGHT = 640;
/** The picture under a face cam moves off-centre by at most this share of its width to avoid it... */
const MAX_PICTURE_SHIFT_SHARE = 0.25;
/**
 * ...and leaves this share of the frame's width beside the cam's box: the box is found a few
 * pixels inside the cam's blurred edge (find-facecam-bounds), and a frame or shadow around it
 * is part of the overlay.
 */
const CAM_CLEARANCE_SHARE = 0.015;

/**
 * A filtergraph fragment from `[inputLabel]` to a 1080×1920, square-pixel `[outputLabel]`.
 * Option values are single-quoted so the expressions' commas survive the graph parser.
 */
export function buildVerticalVideoFilter(
  options: VerticalLayoutOptions & {
    inputLabel: string;
    outputLabel: string;
    /** HDR → SDR filters (see tone-map-args.ts), or null for an SDR source. */
    toneMapFilter?: string | null;
  },
): string {
  const { inputLabel: input, outputLabel: output, toneMapFilter = null } = options;
  const size = `${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}`;
  // Tone mapping costs the same per pixel whatever the picture: it runs on whichever side of
  // the resize has fewer (before an enlarging scale, after a shrinking one).
  const resize = (scale: string, shrinks: boolean) =>
    !toneMapFilter ? scale : shrinks ? `${scale},${toneMapFilter}` : `${toneMapFilter},${scale}`;
  if (options.layout === "crop") {
    // Width from the decoded height (even, for 4:2:0); x is re-evaluated for every frame.
    const cropWidth = "min(iw,trunc(ih*9/16/2)*2)";
    const scale = resize(`scale=${size}:flags=bicubic`, options.sourceHeight > VERTICAL_HEIGHT);
    return `[${input}]crop=w='${cropWidth}':h='ih':x='${options.cropXExpression}':y=0,${scale},setsar=1[${output}]`;
  }
  if (options.layout === "facecam") {
    const { facecam, sourceWidth, sourceHeight } = options;
    const pictureHeight = VERTICAL_HEIGHT - FACECAM_PANEL_HEIGHT;
    const shown = toPixels(facecam.shown, sourceWidth, sourceHeight);
    const box = toPixels(facecam.box, sourceWidth, sourceHeight);
    // The picture's middle, at the bottom panel's shape and the source's full height, moved
    // clear of the cam when that takes a small shift: the cam is already on top.
    const pictureWidth = Math.min(sourceWidth, even((sourceHeight * VERTICAL_WIDTH) / pictureHeight));
    const centredX = (sourceWidth - pictureWidth) / 2;
    const clearance = CAM_CLEARANCE_SHARE * sourceWidth;
    const clearX =
      box.x + box.width / 2 > sourceWidth / 2
        ? Math.min(centredX, box.x - clearance - pictureWidth)
        : Math.max(centredX, box.x + box.width + clearance);
    const pictureX = evenPosition(
      Math.abs(clearX - centredX) <= MAX_PICTURE_SHIFT_SHARE * pictureWidth &&
        clearX >= 0 &&
        clearX + pictureWidth <= sourceWidth
        ? clearX
        : centredX,
    );
    const panel = (crop: string, width: number, height: number, cropWidth: number) =>
      `${crop},${resize(`scale=${width}:${height}:flags=bicubic`, cropWidth > width)}`;
    return [
      `[${input}]split=2[${output}_camsrc][${output}_picsrc]`,
      `[${output}_camsrc]${panel(`crop=${shown.width}:${shown.height}:${shown.x}:${shown.y}`, VERTICAL_WIDTH, FACECAM_PANEL_HEIGHT, shown.width)}[${output}_cam]`,
      `[${output}_picsrc]${panel(`crop=${pictureWidth}:ih:${pictureX}:0`, VERTICAL_WIDTH, pictureHeight, pictureWidth)}[${output}_pic]`,
      `[${output}_cam][${output}_pic]vstack=inputs=2,setsar=1[${output}]`,
    ].join(";");
  }
  const fitted = fitInside(options.sourceWidth, options.sourceHeight);
  // Shrinking, bilinear (whose filter widens with the ratio, so it does not alias) is as clean
  // as bicubic here and costs 0.4 CPU-s less per 20 s of 1080p; enlarging, bicubic is sharper.
  const shrinks = fitted.width < options.sourceWidth;
  const foreground = `${resize(`scale=${fitted.width}:${fitted.height}:flags=${shrinks ? "bilinear" : "bicubic"}`, shrinks)},setsar=1`;
  // No room worth filling (the source is 9:16 within a few pixels): scale to the exact size.
  if (fitted.bandTotal < 4) {
    const scale = resize(`scale=${size}:flags=bicubic`, options.sourceWidth > VERTICAL_WIDTH);
    return `[${input}]${scale},setsar=1[${output}]`;
  }

  // The background is a blurred, dimmed close-up of the foreground's centre. All of it is made
  // at 1/8 size, and only the two bands that show are stretched back up, with the cheapest
  // scaler (a blurred picture loses nothing by it), from every third frame: the stack repeats a
  // band until the next one, and a blur that changes ten times a second looks no different.
  // Measured per 20 s of 1080p30 on two cores (filters only), the background cost 1.4 CPU-s
  // with the whole frame stretched at full rate, 0.7 this way. Stacking the three parts costs
  // about a quarter of an `overlay` at this size.
  const centre =
    fitted.stack === "vstack"
      ? { width: even((fitted.height * 9) / 16), height: fitted.height }
      : { width: fitted.width, height: Math.min(fitted.height, even((fitted.width * 16) / 9)) };
  const background = [
    // Frame numbers, not a rate: the kept frames' times are the foreground's, so the stack
    // makes exactly one frame per source frame, at any (or a variable) frame rate. A hard cut
    // is kept too, so the bands never show the previous shot (scoring costs ~0.1 CPU-s).
    `select='not(mod(n\\,${BACKGROUND_FRAME_STEP}))+gt(scene\\,${BACKGROUND_CUT_SCENE_SCORE})'`,
    `crop=${centre.width}:${centre.height}`,
    `scale=${SMALL_WIDTH}:${SMALL_HEIGHT}:flags=fast_bilinear`,
    "boxblur=luma_radius=6:luma_power=2",
    "eq=brightness=-0.08",
    "split=2",
  ].join(",");
  const firstBand = Math.floor(fitted.bandTotal / 4) * 2;
  const secondBand = fitted.bandTotal - firstBand;
  // Each band from the matching edge of the small picture, then stretched to its size.
  const band = (size: number, atEnd: boolean) => {
    if (fitted.stack === "vstack") {
      const rows = Math.min(SMALL_HEIGHT, even(size / 8));
      return `crop=${SMALL_WIDTH}:${rows}:0:${atEnd ? SMALL_HEIGHT - rows : 0},scale=${VERTICAL_WIDTH}:${size}:flags=fast_bilinear`;
    }
    const columns = Math.min(SMALL_WIDTH, even(size / 8));
    return `crop=${columns}:${SMALL_HEIGHT}:${atEnd ? SMALL_WIDTH - columns : 0}:0,scale=${size}:${VERTICAL_HEIGHT}:flags=fast_bilinear`;
  };
  const [first, second] = [`${output}_band1`, `${output}_band2`];
  return [
    `[${input}]${foreground},split=2[${output}_bgsrc][${output}_fg]`,
    `[${output}_bgsrc]${background}[${output}_bg1][${output}_bg2]`,
    `[${output}_bg1]${band(firstBand, false)}[${first}]`,
    `[${output}_bg2]${band(secondBand, true)}[${second}]`,
    // A final scale is a no-op at the right size, and keeps the output 1080×1920 even if the
    // probe's dimensions were off.
    `[${first}][${output}_fg][${second}]${fitted.stack}=inputs=3,scale=${size},setsar=1[${output}]`,
  ].join(";");
}

/** The background is redrawn from every this-many-th frame... */
const BACKGROUND_FRAME_STEP = 3;
/** ...and from any frame whose scene-change score (0..1) from the one before is above this. */
const BACKGROUND_CUT_SCENE_SCORE = 0.25;
/** The background's working size: 1/8 of the output, even for 4:2:0. */
const SMALL_WIDTH = 136;
const SMALL_HEIGHT = 240;

const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/** An even position (for 4:2:0): unlike a size, it may be 0. */
const evenPosition = (value: number) => Math.max(0, Math.round(value / 2) * 2);

/** A region in even pixels, inside the frame. */
function toPixels(region: FrameRegion, sourceWidth: number, sourceHeight: number) {
  const width = Math.min(sourceWidth, even(region.width * sourceWidth));
  const height = Math.min(sourceHeight, even(region.height * sourceHeight));
  return {
    x: Math.min(sourceWidth - width, evenPosition(region.x * sourceWidth)),
    y: Math.min(sourceHeight - height, evenPosition(region.y * sourceHeight)),
    width,
    height,
  };
}

/**
 * The largest even-sized box with the source's aspect ratio inside 1080×1920, and the space
 * left over: above and below it (vstack) for anything wider than 9:16, beside it (hstack) for
 * anything narrower.
 */
export function fitInside(sourceWidth: number, sourceHeight: number) {
  if (!(sourceWidth > 0) || !(sourceHeight > 0)) {
    return { width: VERTICAL_WIDTH, height: VERTICAL_HEIGHT, stack: "vstack" as const, bandTotal: 0 };
  }
  if (sourceWidth * VERTICAL_HEIGHT >= sourceHeight * VERTICAL_WIDTH) {
    const height = Math.min(VERTICAL_HEIGHT, even((VERTICAL_WIDTH * sourceHeight) / sourceWidth));
    return { width: VERTICAL_WIDTH, height, stack: "vstack" as const, bandTotal: VERTICAL_HEIGHT - height };
  }
  const width = Math.min(VERTICAL_WIDTH, even((VERTICAL_HEIGHT * sourceWidth) / sourceHeight));
  return { width, height: VERTICAL_HEIGHT, stack: "hstack" as const, bandTotal: VERTICAL_WIDTH - width };
}

/**
 * The bare baseline a render is measured against: cut, centre crop to 9:16, scale, encode with
 * the same preset; no analysis, loudness, captions, thumbnail or preview.
 */
export function buildBareVerticalCropArgs(options: {
  input: string;
  startSeconds: number;
  durationSeconds: number;
  outputPath: string;
}): string[] {
  return [
    "-hide_banner",
    "-nostdin",
    "-v",
    "error",
    "-y",
    ...buildSegmentInputArgs({
      input: options.input,
      startSeconds: options.startSeconds,
      durationSeconds: options.durationSeconds,
    }),
    "-vf",
    `crop='min(iw,trunc(ih*9/16/2)*2)':ih,scale=${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}`,
    "-c:v",
    "libx264",
    "-preset",
    RENDER_X264_PRESET,
    "-c:a",
    "aac",
    options.outputPath,
  ];
}
