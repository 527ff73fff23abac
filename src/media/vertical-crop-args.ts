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
  /** The whole frame, scaled to the width, over a blurred, zoomed copy of itself. */
  | { layout: "fit" }
  /** A vertical source: scaled to fit 1080×1920, any margin filled the same way as `fit`. */
  | { layout: "native-vertical" };

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
  // The foreground is scaled once, and the background made from it (not from the larger
  // source): shrunk to 1/8 size, blurred, dimmed and stretched back with the cheapest scaler,
  // since a blurred picture loses nothing by it. Measured on 1080p input, this costs about a
  // third less than blurring a quarter-size copy of the source with the default scaler.
  const background = [
    `scale=${VERTICAL_WIDTH / 8}:${VERTICAL_HEIGHT / 8}:force_original_aspect_ratio=increase:flags=fast_bilinear`,
    `crop=${VERTICAL_WIDTH / 8}:${VERTICAL_HEIGHT / 8}`,
    "boxblur=luma_radius=6:luma_power=2",
    "eq=brightness=-0.08",
    `scale=${size}:flags=fast_bilinear`,
    "setsar=1",
  ].join(",");
  return [
    `[${input}]scale=${size}:force_original_aspect_ratio=decrease:flags=bicubic,setsar=1,split=2[${output}_bgsrc][${output}_fg]`,
    `[${output}_bgsrc]${background}[${output}_bg]`,
    `[${output}_bg][${output}_fg]overlay=x='(W-w)/2':y='(H-h)/2'[${output}]`,
  ].join(";");
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
