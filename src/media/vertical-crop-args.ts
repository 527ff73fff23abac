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
  | { layout: "crop"; cropXExpression: string }
  /** The whole frame, scaled to the width, between bands of a blurred, zoomed copy of itself. */
  | { layout: "fit"; sourceWidth: number; sourceHeight: number }
  /** A vertical source: scaled to fit 1080×1920, any margin filled the same way as `fit`. */
  | { layout: "native-vertical"; sourceWidth: number; sourceHeight: number };

/**
 * A filtergraph fragment from `[inputLabel]` to a 1080×1920, square-pixel `[outputLabel]`.
 * Option values are single-quoted so the expressions' commas survive the graph parser.
 */
export function buildVerticalVideoFilter(
  options: VerticalLayoutOptions & { inputLabel: string; outputLabel: string },
): string {
  const { inputLabel: input, outputLabel: output } = options;
  const size = `${VERTICAL_WIDTH}:${VERTICAL_HEIGHT}`;
  if (options.layout === "crop") {
    // Width from the decoded height (even, for 4:2:0); x is re-evaluated for every frame.
    const cropWidth = "min(iw,trunc(ih*9/16/2)*2)";
    return `[${input}]crop=w='${cropWidth}':h='ih':x='${options.cropXExpression}':y=0,scale=${size}:flags=bicubic,setsar=1[${output}]`;
  }
  const fitted = fitInside(options.sourceWidth, options.sourceHeight);
  const foreground = `scale=${fitted.width}:${fitted.height}:flags=bicubic,setsar=1`;
  // No room worth filling (the source is 9:16 within a few pixels): scale to the exact size.
  if (fitted.bandTotal < 4) return `[${input}]scale=${size}:flags=bicubic,setsar=1[${output}]`;

  // The background is made from the scaled foreground (not the larger source): shrunk to 1/8,
  // blurred, dimmed and stretched back with the cheapest scaler, since a blurred picture loses
  // nothing by it. The foreground is then stacked between two bands cut from it: on two cores
  // `overlay` cost 8 ms a frame at this size, stacking about a quarter of that.
  const background = [
    `scale=${VERTICAL_WIDTH / 8}:${VERTICAL_HEIGHT / 8}:force_original_aspect_ratio=increase:flags=fast_bilinear`,
    `crop=${VERTICAL_WIDTH / 8}:${VERTICAL_HEIGHT / 8}`,
    "boxblur=luma_radius=6:luma_power=2",
    "eq=brightness=-0.08",
    `scale=${size}:flags=fast_bilinear`,
    "setsar=1",
    "split=2",
  ].join(",");
  const [first, second] = [`${output}_band1`, `${output}_band2`];
  const firstBand = Math.floor(fitted.bandTotal / 4) * 2;
  const secondBand = fitted.bandTotal - firstBand;
  const bands =
    fitted.stack === "vstack"
      ? [
          `crop=${VERTICAL_WIDTH}:${firstBand}:0:0`,
          `crop=${VERTICAL_WIDTH}:${secondBand}:0:${firstBand + fitted.height}`,
        ]
      : [
          `crop=${firstBand}:${VERTICAL_HEIGHT}:0:0`,
          `crop=${secondBand}:${VERTICAL_HEIGHT}:${firstBand + fitted.width}:0`,
        ];
  return [
    `[${input}]${foreground},split=2[${output}_bgsrc][${output}_fg]`,
    `[${output}_bgsrc]${background}[${output}_bg1][${output}_bg2]`,
    `[${output}_bg1]${bands[0]}[${first}]`,
    `[${output}_bg2]${bands[1]}[${second}]`,
    // A final scale is a no-op at the right size, and keeps the output 1080×1920 even if the
    // probe's dimensions were off.
    `[${first}][${output}_fg][${second}]${fitted.stack}=inputs=3,scale=${size},setsar=1[${output}]`,
  ].join(";");
}

/**
 * The largest even-sized box with the source's aspect ratio inside 1080×1920, and the space
 * left over: above and below it (vstack) for anything wider than 9:16, beside it (hstack) for
 * anything narrower.
 */
export function fitInside(sourceWidth: number, sourceHeight: number) {
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
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
