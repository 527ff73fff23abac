import { buildSegmentInputArgs, formatSeconds } from "@/media/cut-args";
import { escapeFilterValue } from "@/media/escape-filter-value";
import { buildPreviewFilter, buildPreviewOutputArgs, type PreviewFormat } from "@/media/preview-args";
import type { HttpHeaders } from "@/media/probe-args";
import { buildThumbnailFilter, buildThumbnailOutputArgs } from "@/media/thumbnail-args";
import { BT709_OUTPUT_TAGS } from "@/media/tone-map-args";
import {
  buildVerticalVideoFilter,
  RENDER_X264_PRESET,
  type VerticalLayoutOptions,
} from "@/media/vertical-crop-args";

export type RenderAudio =
  /** The source's first audio track through this filter chain (loudness normalisation). */
  | { kind: "source"; filter: string }
  /** No audio in the source: a silent track, so every clip has an audio stream. */
  | { kind: "silent" };

export type BuildRenderArgsOptions = {
  sourcePath: string;
  /** Sent with every request when `sourcePath` is a URL (see buildSegmentInputArgs). */
  sourceHttpHeaders?: HttpHeaders;
  startSeconds: number;
  durationSeconds: number;
  layout: VerticalLayoutOptions;
  /** HDR → SDR filters for an HDR source (buildToneMapFilter), null for SDR. */
  toneMapFilter: string | null;
  /**
   * Stretch to this size first (the displayed size): a source with non-square pixels, which
   * the crop and fit arithmetic would otherwise read as squeezed. Null for square pixels.
   */
  squarePixelSize: { width: number; height: number } | null;
  /** Resample to this constant rate (variable or very high frame rate sources); null keeps it. */
  outputFramesPerSecond: number | null;
  /** An ASS file burned in (libass), and a directory with the font it names. */
  captions: { assPath: string; fontsDirectory: string | null } | null;
  audio: RenderAudio;
  videoPath: string;
  thumbnail: { atSeconds: number; path: string };
  preview: { format: PreviewFormat; path: string };
  /**
   * Constant quality. x264's default (23), as the bare baseline uses: a 9:16 crop of a 16:9
   * source is upscaled 1.78×, so there is little fine detail for a lower CRF to keep, and the
   * platforms re-encode anyway.
   */
  crf?: number;
  /**
   * Threads decoding the source: the machine's cores. x264 keeps its own default (1.5× the
   * cores), as the bare baseline does: with only as many threads as cores, the encode ran
   * ~5% longer on two cores (measured 10.9 vs 10.4 s median for 20 s), the encoder's threads
   * waiting on each other; the decoder's default one more thread only held 7 MB more.
   */
  decoderThreads: number;
};

/**
 * Mono stays mono and stereo stereo; more channels are folded to stereo. Upmixing a mono source
 * to stereo (as `-ac 2` did) doubled the AAC encoder's work for two identical channels: +0.38
 * CPU-s per 20 s, on the ffmpeg thread that also feeds the video encoder.
 */
const OUTPUT_CHANNEL_LAYOUTS = "aformat=channel_layouts=mono|stereo";

/**
 * The audio fades in over the clip's first 20 ms and out over its last, as an editor does at
 * every cut: a clip cut mid-waveform began and ended with a click (measured: a first sample at
 * −15 dBFS after digital silence, a last at −4 dBFS), heard again at every loop on the
 * platforms. 20 ms is too short to soften a word.
 */
export const EDGE_FADE_SECONDS = 0.02;

/** The fades in and out at the clip's edges (a clip too short for both gets none). */
function edgeFades(durationSeconds: number): string {
  if (!(durationSeconds > 4 * EDGE_FADE_SECONDS)) return "";
  const fade = formatSeconds(EDGE_FADE_SECONDS);
  return `,afade=t=in:d=${fade},afade=t=out:st=${formatSeconds(durationSeconds - EDGE_FADE_SECONDS)}:d=${fade}`;
}

/**
 * One ffmpeg run that decodes the segment once and writes all three outputs: the 1080×1920
 * H.264/AAC clip (faststart, loudness-normalised, captions burned in), the thumbnail (a clean
 * frame, before captions) and the animated preview (with captions, as the clip shows).
 * Progress goes to stderr as `key=value` lines (`-progress pipe:2`).
 */
export function buildRenderArgs(options: BuildRenderArgsOptions): string[] {
  const { durationSeconds, captions, audio, thumbnail, preview, crf = 23 } = options;
  const graph: string[] = [];
  const fps = options.outputFramesPerSecond ? `fps=${options.outputFramesPerSecond}` : "null";
  const square = options.squarePixelSize;
  const stretch = square ? `scale=${square.width}:${square.height},setsar=1,` : "";
  graph.push(`[0:v]${stretch}${fps}[src]`);
  graph.push(
    buildVerticalVideoFilter({
      ...options.layout,
      toneMapFilter: options.toneMapFilter,
      inputLabel: "src",
      outputLabel: "framed",
    }),
  );

  if (captions) {
    const fontsDirectory = captions.fontsDirectory
      ? `:fontsdir=${escapeFilterValue(captions.fontsDirectory)}`
      : "";
    graph.push("[framed]split=2[clean][uncaptioned]");
    graph.push(
      `[uncaptioned]subtitles=filename=${escapeFilterValue(captions.assPath)}${fontsDirectory},split=2[main][forpreview]`,
    );
  } else {
    graph.push("[framed]split=3[main][clean][forpreview]");
  }
  graph.push("[main]format=yuv420p[vout]");
  const thumbnailOptions = {
    inputLabel: "clean",
    outputLabel: "thumb",
    atSeconds: thumbnail.atSeconds,
    outputPath: thumbnail.path,
  };
  graph.push(buildThumbnailFilter(thumbnailOptions));
  const previewOptions = {
    inputLabel: "forpreview",
    outputLabel: "preview",
    format: preview.format,
    outputPath: preview.path,
  };
  graph.push(buildPreviewFilter(previewOptions));

  const inputs = [
    // An input option: it applies to the source's decoder, not to x264.
    "-threads",
    String(options.decoderThreads),
    ...buildSegmentInputArgs({
      input: options.sourcePath,
      startSeconds: options.startSeconds,
      durationSeconds,
      httpHeaders: options.sourceHttpHeaders,
    }),
  ];
  if (audio.kind === "source") {
    graph.push(`[0:a:0]${audio.filter},${OUTPUT_CHANNEL_LAYOUTS}${edgeFades(durationSeconds)}[aout]`);
  } else {
    inputs.push(
      "-f",
      "lavfi",
      "-t",
      formatSeconds(durationSeconds),
      "-i",
      "anullsrc=channel_layout=mono:sample_rate=48000",
    );
    graph.push("[1:a]anull[aout]");
  }

  return [
    "-hide_banner",
    "-nostdin",
    "-y",
    "-v",
    "error",
    // Machine-readable progress (out_time=…) on stderr, without the human status line.
    "-nostats",
    "-progress",
    "pipe:2",
    ...inputs,
    // Filters in one thread. ffmpeg's default splits each frame's filtering into slices across
    // threads, which wait on each other while x264's threads already keep the cores busy: on
    // two cores one thread took 0.3–0.7 CPU-s less per 20 s and rendered 1–4% sooner (the
    // crop's bicubic upscale is the largest filter).
    "-filter_complex_threads",
    "1",
    "-filter_complex",
    graph.join(";"),
    "-map",
    "[vout]",
    "-map",
    "[aout]",
    "-c:v",
    "libx264",
    "-preset",
    RENDER_X264_PRESET,
    "-crf",
    String(crf),
    "-profile:v",
    "high",
    "-pix_fmt",
    "yuv420p",
    // A tone-mapped picture is BT.709; an SDR source's colours pass through untouched, untagged.
    ...(options.toneMapFilter ? BT709_OUTPUT_TAGS : []),
    "-c:a",
    "aac",
    "-b:a",
    "128k",
    "-ar",
    "48000",
    // The moov atom first, so players and platforms can start before the whole file arrives.
    "-movflags",
    "+faststart",
    // Source tags (rotation, GPS, encoder) do not belong to the clip.
    "-map_metadata",
    "-1",
    "-t",
    formatSeconds(durationSeconds),
    "-f",
    "mp4",
    options.videoPath,
    ...buildThumbnailOutputArgs(thumbnailOptions),
    ...buildPreviewOutputArgs(previewOptions),
  ];
}
