import { type HttpHeaders, isHttpUrl, networkInputArgs, toMediaInputArg } from "./probe-args";

/** A stalled read of a URL source fails after this long instead of at the job's limit. */
const SEGMENT_IO_TIMEOUT_MS = 30_000;

/** What `-skip_frame` leaves undecoded (see SegmentInputOptions.skipFrames). */
export type SkippedFrames = "noref" | "bidir";

export type SegmentInputOptions = {
  /** A local path (or an http(s) URL). */
  input: string;
  startSeconds: number;
  durationSeconds: number;
  /**
   * Decode faster at some cost in picture fidelity: skip the deblocking filter and allow
   * non-conforming speedups. For small analysis frames only, never for the rendered output.
   */
  fastDecode?: boolean;
  /**
   * Frames the decoder leaves out (analysis only). `noref`: frames no other frame refers to,
   * safe for any codec. `bidir`: every B-frame, which halves decoding for typical H.264: x264
   * never references a B-frame from an I or P frame, so those still decode exactly (HEVC
   * encoders do reference B-frames, and some code every inter frame as B). A low-rate sampler
   * then picks the nearest decoded frame.
   */
  skipFrames?: SkippedFrames;
  /** Video decoder threads; ffmpeg's default (one more than the cores) when absent. */
  videoDecoderThreads?: number;
  /** Sent with every request for a URL input (`If-Match`: only the object that was checked). */
  httpHeaders?: HttpHeaders;
};

/**
 * Input arguments that read one segment of a source. `-ss` before `-i` seeks to the keyframe
 * before the start and then decodes accurately up to it, and resets timestamps so the segment
 * starts at t = 0 (the crop path and captions are timed from there). ffmpeg applies the
 * source's rotation metadata by default, so frames arrive display-oriented.
 */
export function buildSegmentInputArgs({
  input,
  startSeconds,
  durationSeconds,
  fastDecode = false,
  skipFrames,
  videoDecoderThreads,
  httpHeaders,
}: SegmentInputOptions): string[] {
  if (!(startSeconds >= 0) || !(durationSeconds > 0)) {
    throw new Error(`Invalid segment: start ${startSeconds} s, duration ${durationSeconds} s`);
  }
  // Decoder options name the video stream: the segment's audio may be decoded in the same run.
  return [
    ...(fastDecode ? ["-skip_loop_filter:v", "all", "-flags2:v", "fast"] : []),
    ...(skipFrames ? ["-skip_frame:v", skipFrames] : []),
    ...(videoDecoderThreads ? ["-threads:v", String(videoDecoderThreads)] : []),
    // Read by URL, ffmpeg takes a failed read (a dropped connection, a stall past the read
    // timeout, a 412 for a replaced file) for the end of the input and exits 0 on part of the
    // segment: a short clip, or a subject or loudness pass that saw only its start. Stop instead
    // (a global option, honoured wherever it stands), so the job fails and retries or downloads.
    ...(isHttpUrl(input) ? ["-xerror"] : []),
    ...networkInputArgs(input, SEGMENT_IO_TIMEOUT_MS, httpHeaders),
    "-ss",
    formatSeconds(startSeconds),
    "-t",
    formatSeconds(durationSeconds),
    "-i",
    toMediaInputArg(input),
  ];
}

/** Seconds with millisecond precision, the way ffmpeg's duration options read them. */
export function formatSeconds(seconds: number): string {
  return (Math.round(seconds * 1000) / 1000).toFixed(3);
}
