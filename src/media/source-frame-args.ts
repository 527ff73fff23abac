import { formatSeconds } from "./cut-args";
import { type HttpHeaders, networkInputArgs, toMediaInputArg } from "./probe-args";

/** A stalled read of a URL source fails after this long. */
const SOURCE_FRAME_IO_TIMEOUT_MS = 15_000;

/** Its longer side: enough for the library's and the dashboard's thumbnails on a 2× screen. */
export const SOURCE_FRAME_MAX_SIDE_PIXELS = 640;

export type SourceFrameOptions = {
  /** A local path or an http(s) URL (read with range requests: only what the seek needs). */
  input: string;
  httpHeaders?: HttpHeaders;
  atSeconds: number;
  /** HDR sources: the tone-mapping filter (render-capabilities), so the frame is not washed out. */
  toneMapFilter?: string | null;
};

/**
 * One frame of a source as a JPEG on stdout: the keyframe at or before `atSeconds`
 * (`-noaccurate_seek` keeps it, and only keyframes are decoded), scaled down to at most
 * SOURCE_FRAME_MAX_SIDE_PIXELS on its longer side, upright (ffmpeg applies rotation). A picture
 * of the video while it waits to be analysed, so it costs one seek and one decoded frame.
 */
export function buildSourceFrameArgs({
  input,
  httpHeaders,
  atSeconds,
  toneMapFilter,
}: SourceFrameOptions): string[] {
  if (!(atSeconds >= 0)) throw new Error(`Invalid frame time: ${atSeconds} s`);
  const side = SOURCE_FRAME_MAX_SIDE_PIXELS;
  const scale = `scale=w='min(${side},iw)':h='min(${side},ih)':force_original_aspect_ratio=decrease:force_divisible_by=2`;
  return [
    ...["-hide_banner", "-nostdin", "-v", "error"],
    ...networkInputArgs(input, SOURCE_FRAME_IO_TIMEOUT_MS, httpHeaders),
    ...["-skip_frame:v", "nokey", "-noaccurate_seek", "-ss", formatSeconds(atSeconds)],
    ...["-i", toMediaInputArg(input)],
    ...["-map", "0:v:0", "-vf", toneMapFilter ? `${toneMapFilter},${scale}` : scale],
    // The seek makes the keyframe's time negative, and a constant-rate output drops such frames
    // (it would take the next keyframe, or none near the end): pass frames through as they are.
    ...["-vsync", "passthrough"],
    ...["-frames:v", "1", "-q:v", "4", "-f", "image2pipe", "-c:v", "mjpeg", "pipe:1"],
  ];
}
