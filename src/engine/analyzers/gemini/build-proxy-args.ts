/**
 * ffmpeg arguments for the low-resolution copy of a source that is sent to Gemini inline.
 *
 * Gemini samples video at about one frame per second and, at `MEDIA_RESOLUTION_LOW`, sees a
 * small image per frame; anything richer only inflates the request (inline limit 100 MB).
 * So: the sample rate Gemini will use, the short side at most 360 px, mono 16 kHz speech-grade
 * audio. A two-hour talk comes out around 40–60 MB. Works with Debian's ffmpeg 5 and the 2018
 * static npm build alike (no newer filters or options).
 */
export type ProxyArgsOptions = {
  sourcePath: string;
  outputPath: string;
  hasVideo: boolean;
  hasAudio: boolean;
  /** Frames kept per second of source; matches the `videoMetadata.fps` sent to Gemini. */
  framesPerSecond: number;
  /** The shorter side of the picture after scaling; smaller sources are not upscaled. */
  shortSidePixels?: number;
  /** HDR → SDR filters, run on the small frames (see tone-map-args.ts); none for SDR. */
  toneMapFilter?: string | null;
};

export const PROXY_SHORT_SIDE_PIXELS = 360;

export function buildProxyArgs(options: ProxyArgsOptions): string[] {
  const { sourcePath, outputPath, hasVideo, hasAudio, framesPerSecond } = options;
  const shortSide = options.shortSidePixels ?? PROXY_SHORT_SIDE_PIXELS;
  if (!hasVideo && !hasAudio) throw new Error("buildProxyArgs: the source has neither video nor audio");
  if (!(framesPerSecond > 0))
    throw new Error(`buildProxyArgs: framesPerSecond must be > 0, got ${framesPerSecond}`);

  const args = [
    ...["-hide_banner", "-nostdin", "-loglevel", "error", "-y"],
    // A frame a second needs only the frames others refer to: the rest (most B-frames) go
    // undecoded, and `fps` takes the nearest decoded one. On two minutes of the bench's 1080p
    // H.264 source: 3.2 s and 4.1 CPU-s instead of 4.9 s and 7.5.
    ...(hasVideo ? ["-skip_frame:v", "noref"] : []),
    ...["-i", sourcePath],
  ];
  if (hasVideo) {
    // Landscape sources get `short` px of height, portrait ones `short` px of width; `-2`
    // keeps the aspect ratio with an even size (x264 needs even dimensions). Rotation is
    // already applied by ffmpeg's autorotate, so iw/ih are the displayed dimensions.
    const scale =
      `scale='if(gte(iw,ih),-2,min(${shortSide},iw))'` + `:'if(gte(iw,ih),min(${shortSide},ih),-2)'`;
    args.push(
      "-map",
      "0:v:0",
      "-vf",
      [
        `fps=${formatRate(framesPerSecond)}`,
        scale,
        ...(options.toneMapFilter ? [options.toneMapFilter] : []),
      ].join(","),
      "-c:v",
      "libx264",
      // Few frames to encode, so the slower presets buy little; CRF 32 still reads text.
      "-preset",
      "veryfast",
      "-crf",
      "32",
      // Players and Gemini's decoder expect 4:2:0; some sources are 4:2:2 or 4:4:4.
      "-pix_fmt",
      "yuv420p",
    );
  }
  if (hasAudio) {
    args.push("-map", "0:a:0", "-ac", "1", "-ar", "16000", "-c:a", "aac", "-b:a", "32k");
  }
  args.push(
    // Subtitles, data tracks and metadata only add bytes.
    "-sn",
    "-dn",
    "-map_metadata",
    "-1",
    "-f",
    "mp4",
    outputPath,
  );
  return args;
}

/** ffmpeg reads `fps=0.5` fine; keep the value short and exact for typical rates. */
function formatRate(framesPerSecond: number): string {
  return Number(framesPerSecond.toFixed(3)).toString();
}
