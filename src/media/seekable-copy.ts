import { rm } from "node:fs/promises";
import path from "node:path";
import type { MediaBinaries } from "./ffmpeg-binaries";
import { toMediaInputArg } from "./probe-args";
import { runMedia } from "./run-ffmpeg";

/**
 * Containers ffmpeg cannot cut accurately. They have no keyframe index, so the MPEG-TS and
 * MPEG-PS demuxers seek to any packet before the time asked for and decoding resumes at the
 * next keyframe, up to a keyframe interval late: measured on a stream capture, `-ss 15` gave
 * frames from 16.7 s, so a clip lost its start (and its thumbnail, and then the render).
 * Matroska (with or without cues), MP4 (fragmented too), FLV and AVI seek exactly.
 */
const IMPRECISE_SEEK_FORMATS = new Set(["mpegts", "mpeg"]);

/** Whether a source (by ffprobe's `format_name`) must be copied into Matroska before cutting. */
export function needsSeekableCopy(formatName: string): boolean {
  return IMPRECISE_SEEK_FORMATS.has(formatName);
}

/**
 * Copies the first video and audio streams, undecoded, into Matroska, which holds any codec a
 * transport stream carries and is cut exactly. Timestamps start at zero as in every other pass
 * (a capture's clock may read hours). Subtitle and data streams (SCTE-35 and the like) are
 * left out: the engine reads neither.
 */
export function buildSeekableCopyArgs({
  input,
  outputPath,
}: {
  input: string;
  outputPath: string;
}): string[] {
  return [
    ...["-hide_banner", "-nostdin", "-v", "error", "-y"],
    ...["-i", toMediaInputArg(input)],
    ...["-map", "0:v:0", "-map", "0:a:0?", "-c", "copy", "-sn", "-dn"],
    ...["-f", "matroska", outputPath],
  ];
}

/**
 * The source itself when it can be cut exactly, or a seekable copy of it written in
 * `directory` (which the caller removes). Copying reads and writes the file once, at disk
 * speed: nothing is decoded.
 */
export async function ensureSeekableSource(options: {
  binaries: Pick<MediaBinaries, "ffmpegPath">;
  sourcePath: string;
  formatName: string;
  durationSeconds: number;
  directory: string;
  /**
   * The source is a download of our own: delete it once copied, so a capture of several GB
   * does not sit on disk twice. Never for a creator's own file (the CLI).
   */
  deleteSourceOnceCopied?: boolean;
  signal?: AbortSignal;
}): Promise<string> {
  if (!needsSeekableCopy(options.formatName)) return options.sourcePath;
  const outputPath = path.join(options.directory, "seekable-copy.mkv");
  await runMedia({
    binaryPath: options.binaries.ffmpegPath,
    args: buildSeekableCopyArgs({ input: options.sourcePath, outputPath }),
    // Disk speed: a two-hour capture (several GB) copies in a minute or two.
    timeoutMs: 120_000 + options.durationSeconds * 200,
    signal: options.signal,
  });
  if (options.deleteSourceOnceCopied) await rm(options.sourcePath, { force: true });
  return outputPath;
}
