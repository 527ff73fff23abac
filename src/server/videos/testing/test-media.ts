import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";

/**
 * Generates a small real video with ffmpeg's lavfi sources (test pattern + tone), for tests
 * and benchmarks that need a file ffprobe accepts. Spawned through `runMedia` like all ffmpeg.
 */
export async function makeTestVideo(options: {
  outputPath: string;
  durationSeconds: number;
  width?: number;
  height?: number;
  fps?: number;
  withAudio?: boolean;
  /** x264 quality: lower is bigger (0 = lossless, files grow fast). */
  crf?: number;
  /** Film grain that defeats compression: for files of a wanted size (about 5.5 MB/s at 640×360). */
  noise?: boolean;
  /** H.264 (default) or HEVC, as phones record (MP4 only). */
  videoCodec?: "h264" | "hevc";
  signal?: AbortSignal;
}): Promise<void> {
  const {
    outputPath,
    durationSeconds,
    width = 320,
    height = 180,
    fps = 30,
    withAudio = true,
    crf = 28,
  } = options;
  const filters = options.noise ? ["-vf", "noise=alls=60:allf=t"] : [];
  const binaries = resolveMediaBinaries();
  const video = ["-f", "lavfi", "-i", `testsrc2=s=${width}x${height}:r=${fps}:d=${durationSeconds}`];
  const audio = withAudio
    ? ["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:d=${durationSeconds}`]
    : [];
  const isWebm = outputPath.endsWith(".webm");
  const codecs = isWebm
    ? ["-c:v", "libvpx", "-deadline", "realtime", "-b:v", "300k", ...(withAudio ? ["-c:a", "libopus"] : [])]
    : [
        ...(options.videoCodec === "hevc"
          ? ["-c:v", "libx265", "-x265-params", "log-level=error", "-tag:v", "hvc1"]
          : ["-c:v", "libx264"]),
        "-preset",
        "ultrafast",
        "-crf",
        String(crf),
        "-pix_fmt",
        "yuv420p",
        ...(withAudio ? ["-c:a", "aac"] : []),
      ];
  await runMedia({
    binaryPath: binaries.ffmpegPath,
    args: [
      "-hide_banner",
      "-v",
      "error",
      "-y",
      ...video,
      ...audio,
      ...filters,
      ...codecs,
      "-shortest",
      outputPath,
    ],
    timeoutMs: 120_000,
    signal: options.signal,
  });
}

/** An audio-only file (a .m4a that is not a video). */
export async function makeTestAudio(options: { outputPath: string; durationSeconds: number }): Promise<void> {
  const binaries = resolveMediaBinaries();
  await runMedia({
    binaryPath: binaries.ffmpegPath,
    args: [
      "-hide_banner",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=440:sample_rate=48000:d=${options.durationSeconds}`,
      "-c:a",
      "aac",
      "-f",
      "mp4",
      options.outputPath,
    ],
    timeoutMs: 60_000,
  });
}
