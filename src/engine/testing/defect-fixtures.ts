import { readFile, stat, truncate, writeFile } from "node:fs/promises";
import path from "node:path";
import type { MediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";

/**
 * Small media files named for their defect, generated at test time with ffmpeg's lavfi
 * sources (no binary fixtures in the repository). Each is a few seconds at 320×180 so the
 * whole set takes a couple of seconds to make.
 */
export const DEFECT_FIXTURE_NAMES = [
  "no-audio",
  "audio-only",
  "vertical",
  "rotated",
  "variable-frame-rate",
  "one-second",
  "picture-ends-early",
  "no-duration",
  "corrupt",
  "not-a-video",
  "truncated",
] as const;

export type DefectFixtureName = (typeof DEFECT_FIXTURE_NAMES)[number];

export type DefectFixtures = Record<DefectFixtureName, string>;

const FILE_NAMES: Record<DefectFixtureName, string> = {
  "no-audio": "no-audio.mp4",
  "audio-only": "audio-only.m4a",
  vertical: "vertical.mp4",
  rotated: "rotated.mov",
  "variable-frame-rate": "variable-frame-rate.mp4",
  "one-second": "one-second.mp4",
  "picture-ends-early": "picture-ends-early.mp4",
  "no-duration": "no-duration.webm",
  corrupt: "corrupt.mp4",
  "not-a-video": "not-a-video.mp4",
  truncated: "truncated.mp4",
};

const COMMON_VIDEO = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];
const COMMON_AUDIO = ["-c:a", "aac", "-b:a", "64k"];

/** Builds every defect fixture in `directory` (which the caller creates and removes). */
export async function createDefectFixtures({
  binaries,
  directory,
  signal,
}: {
  binaries: MediaBinaries;
  directory: string;
  signal?: AbortSignal;
}): Promise<DefectFixtures> {
  const file = (name: DefectFixtureName) => path.join(directory, FILE_NAMES[name]);
  const ffmpeg = (args: string[]) =>
    runMedia({
      binaryPath: binaries.ffmpegPath,
      args: ["-hide_banner", "-v", "error", "-y", ...args],
      timeoutMs: 60_000,
      signal,
    });
  const picture = (size: string, seconds: number) => [
    "-f",
    "lavfi",
    "-i",
    `testsrc=s=${size}:r=30:d=${seconds}`,
  ];
  const tone = (seconds: number) => [
    "-f",
    "lavfi",
    "-i",
    `sine=frequency=330:sample_rate=48000:d=${seconds}`,
  ];

  await ffmpeg([...picture("320x180", 4), ...COMMON_VIDEO, file("no-audio")]);
  await ffmpeg([...tone(4), ...COMMON_AUDIO, file("audio-only")]);
  await ffmpeg([
    ...picture("180x320", 4),
    ...tone(4),
    ...COMMON_VIDEO,
    ...COMMON_AUDIO,
    "-shortest",
    file("vertical"),
  ]);
  await ffmpeg([
    ...picture("320x180", 1),
    ...tone(1),
    ...COMMON_VIDEO,
    ...COMMON_AUDIO,
    "-shortest",
    file("one-second"),
  ]);

  // The picture stops at 4 s and the sound runs on to 12 s, as a recording whose video track
  // ended early: there is nothing to clip after 4 s.
  await ffmpeg([
    ...picture("320x180", 4),
    ...tone(12),
    ...COMMON_VIDEO,
    ...COMMON_AUDIO,
    file("picture-ends-early"),
  ]);

  // No duration: WebM as a browser's MediaRecorder writes it, live (no duration, no cues).
  await ffmpeg([
    ...picture("320x180", 4),
    ...tone(4),
    ...["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"],
    ...["-c:a", "libopus", "-b:a", "48k", "-shortest", "-live", "1", "-f", "webm"],
    file("no-duration"),
  ]);

  // Rotation is container metadata (a display matrix), as phones write it: the coded picture
  // is landscape and players turn it upright. Remuxing with `rotate` sets the matrix.
  const landscape = path.join(directory, "landscape-source.mp4");
  await ffmpeg([
    ...picture("320x180", 4),
    ...tone(4),
    ...COMMON_VIDEO,
    ...COMMON_AUDIO,
    "-shortest",
    landscape,
  ]);
  await ffmpeg(["-i", landscape, "-map", "0", "-c", "copy", "-metadata:s:v:0", "rotate=90", file("rotated")]);

  // Every third frame after the first second, with the original timestamps kept: the frame
  // interval changes from 1/30 s to 1/10 s, like a phone that lowers its rate in the dark.
  await ffmpeg([
    ...picture("320x180", 4),
    ...tone(4),
    "-vf",
    "select='lt(n\\,30)+not(mod(n\\,3))'",
    ...(binaries.majorVersion >= 5 ? ["-fps_mode", "vfr"] : ["-vsync", "vfr"]),
    ...COMMON_VIDEO,
    ...COMMON_AUDIO,
    file("variable-frame-rate"),
  ]);

  // Corrupt: a valid MP4 with 16 KB of its media data overwritten by noise in the middle, as a
  // damaged disk or a bad transfer leaves it: the container is intact, some frames are not.
  const bytes = await readFile(landscape);
  const damagedStart = Math.floor(bytes.length / 2) - 8192;
  for (let index = 0; index < 16_384 && damagedStart + index < bytes.length; index += 1) {
    bytes[damagedStart + index] = pseudoNoise(index);
  }
  await writeFile(file("corrupt"), bytes);

  // Not a video: noise with an .mp4 name, as when someone uploads the wrong file.
  await writeFile(
    file("not-a-video"),
    Buffer.from(Array.from({ length: 32_768 }, (_, index) => pseudoNoise(index))),
  );

  // Truncated: an upload cut in half. Without `+faststart` the index sits at the end of an MP4,
  // so the first half has media data but no index, as a real interrupted upload does.
  await ffmpeg([
    ...picture("320x180", 6),
    ...tone(6),
    ...COMMON_VIDEO,
    ...COMMON_AUDIO,
    "-shortest",
    file("truncated"),
  ]);
  const { size } = await stat(file("truncated"));
  await truncate(file("truncated"), Math.floor(size / 2));

  return Object.fromEntries(DEFECT_FIXTURE_NAMES.map((name) => [name, file(name)])) as DefectFixtures;
}

/** Deterministic bytes that no demuxer recognises. */
function pseudoNoise(index: number): number {
  return (index * 7919 + 13) % 251;
}
