import { readMediaStdout } from "./run-ffmpeg";
import { buildSourceFrameArgs, type SourceFrameOptions } from "./source-frame-args";

/** Far above a 640-pixel JPEG (30–150 KB); past it ffmpeg is writing something else. */
const MAX_FRAME_BYTES = 4 * 1024 * 1024;

/**
 * One frame of a source as JPEG bytes (see buildSourceFrameArgs), read from ffmpeg's stdout so
 * nothing is written to disk. Null when ffmpeg decoded no frame there (a seek past the last
 * keyframe of a damaged file, a source without video).
 */
export async function grabSourceFrame(
  options: SourceFrameOptions & { ffmpegPath: string; timeoutMs: number; signal?: AbortSignal },
): Promise<Buffer | null> {
  const jpeg = await readMediaStdout({
    binaryPath: options.ffmpegPath,
    args: buildSourceFrameArgs(options),
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    maxBytes: MAX_FRAME_BYTES,
  });
  return jpeg.length > 0 ? jpeg : null;
}
