import type { MediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";

/**
 * Encodes a small H.264 test source (x264 `ultrafast`, yuv420p) from ffmpeg input arguments,
 * typically lavfi graphs; `outputArgs` adds encoder or audio options (a GOP, an AAC track).
 */
export async function encodeTestVideo(options: {
  binaries: Pick<MediaBinaries, "ffmpegPath">;
  inputArgs: string[];
  outputArgs?: string[];
  outputPath: string;
}): Promise<void> {
  await runMedia({
    binaryPath: options.binaries.ffmpegPath,
    args: [
      ...["-hide_banner", "-v", "error", "-y"],
      ...options.inputArgs,
      ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"],
      ...(options.outputArgs ?? []),
      options.outputPath,
    ],
    timeoutMs: 30_000,
  });
}
