import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { MediaProbe } from "@/engine/types";
import { dynamicRangeOfTransfer } from "./dynamic-range";
import type { MediaBinaries } from "./ffmpeg-binaries";
import {
  buildPacketTimesArgs,
  buildProbeArgs,
  type HttpHeaders,
  hideMediaInputNames,
  isHttpUrl,
} from "./probe-args";
import { MediaCommandError, readMediaStdout, runMedia } from "./run-ffmpeg";

/** Why a source cannot be used, in words a creator understands (`message`), plus a stable kind. */
export type MediaProbeErrorKind =
  | "not-found"
  | "unreadable"
  | "truncated"
  | "no-video"
  | "empty"
  | "unreachable"
  | "timeout"
  | "cancelled"
  /** ffprobe was killed from outside or could not start: nothing to do with the file. */
  | "interrupted";

/** Kinds that say nothing against the file itself: the same read may succeed later. */
const PASSING_KINDS: ReadonlySet<MediaProbeErrorKind> = new Set([
  "unreachable",
  "timeout",
  "cancelled",
  "interrupted",
]);

export class MediaProbeError extends Error {
  constructor(
    readonly kind: MediaProbeErrorKind,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
    this.name = "MediaProbeError";
  }

  /** Whether trying again may succeed (the network, the machine), or the file is what it is. */
  get mayPass(): boolean {
    return PASSING_KINDS.has(this.kind);
  }
}

export type ProbeMediaOptions = {
  binaries: MediaBinaries;
  /** A local path or an http(s) URL (the worker probes presigned S3 GETs). */
  input: string;
  /** For a URL: headers sent with every request (the worker pins the object with If-Match). */
  httpHeaders?: HttpHeaders;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/** ffprobe's JSON holds a few KB; anything far larger is not an ffprobe answer we want to hold. */
const MAX_PROBE_JSON_BYTES = 8 * 1024 * 1024;

/** Reads a source's streams and container and normalises them into a `MediaProbe`. */
export async function probeMedia({
  binaries,
  input,
  httpHeaders,
  timeoutMs = 30_000,
  signal,
}: ProbeMediaOptions): Promise<MediaProbe> {
  let output: Buffer;
  try {
    output = await readMediaStdout({
      binaryPath: binaries.ffprobePath,
      args: buildProbeArgs({ input, httpHeaders, ioTimeoutMs: Math.min(timeoutMs, 20_000) }),
      timeoutMs,
      signal,
      maxBytes: MAX_PROBE_JSON_BYTES,
    });
  } catch (error) {
    const probeError = toProbeError(error, input, timeoutMs);
    // ffmpeg says "moov atom not found" for any .mp4 it cannot parse; a file that starts with
    // a valid `ftyp` box was cut short, one that does not is not an MP4 at all.
    if (probeError.kind === "truncated" && !isHttpUrl(input) && !(await startsWithFtypBox(input))) {
      throw new MediaProbeError("unreadable", UNREADABLE_MESSAGE, { cause: error });
    }
    throw probeError;
  }
  let json: unknown;
  try {
    json = JSON.parse(output.toString("utf8"));
  } catch (error) {
    throw new MediaProbeError(
      "unreadable",
      "This file is not a video we can read (ffprobe gave no answer).",
      {
        cause: error,
      },
    );
  }
  try {
    return parseProbeJson(json);
  } catch (error) {
    if (!(error instanceof MediaProbeError && error.kind === "empty")) throw error;
  }
  // No duration in the header, as a browser's MediaRecorder writes WebM: the length is where
  // the last packet ends (still "empty" when there are none).
  const measuredDurationSeconds = await measureDurationFromPackets({
    binaries,
    input,
    httpHeaders,
    signal,
  }).catch((error: unknown) => {
    throw toProbeError(error, input, PACKET_SCAN_TIMEOUT_MS);
  });
  return parseProbeJson(json, measuredDurationSeconds);
}

/** Reading every packet header of a long file takes a while (disk or network speed). */
const PACKET_SCAN_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * Runs ffprobe's packet listing (`buildPacketTimesArgs`) and hands each packet's time and
 * duration (NaN where ffprobe prints none) to `onPacket` as the lines stream in.
 */
async function readPacketTimes(options: {
  binaries: MediaBinaries;
  args: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  onPacket: (timeSeconds: number, durationSeconds: number) => void;
}): Promise<void> {
  await runMedia({
    binaryPath: options.binaries.ffprobePath,
    args: options.args,
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    consumeStdout: async (stdout) => {
      for await (const line of createInterface({ input: stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
        const [time, duration] = line.split(",").map(Number);
        if (Number.isFinite(time)) options.onPacket(time!, duration ?? Number.NaN);
      }
    },
  });
}

/** Seconds to the end of the last packet, or 0 when there are none. */
async function measureDurationFromPackets(options: {
  binaries: MediaBinaries;
  input: string;
  httpHeaders?: HttpHeaders;
  signal?: AbortSignal;
}): Promise<number> {
  let endSeconds = 0;
  await readPacketTimes({
    binaries: options.binaries,
    args: buildPacketTimesArgs({ input: options.input, httpHeaders: options.httpHeaders }),
    timeoutMs: PACKET_SCAN_TIMEOUT_MS,
    signal: options.signal,
    onPacket: (time, duration) => {
      endSeconds = Math.max(endSeconds, time + (Number.isFinite(duration) ? duration : 0));
    },
  });
  return endSeconds;
}

/**
 * Whether the source's video has any packet in [startSeconds, endSeconds): a recording whose
 * picture stopped early (its audio or container running on) has none after that point. Reads
 * packet headers around the range only; nothing is decoded.
 */
export async function hasVideoBetween(options: {
  binaries: MediaBinaries;
  input: string;
  httpHeaders?: HttpHeaders;
  startSeconds: number;
  endSeconds: number;
  signal?: AbortSignal;
}): Promise<boolean> {
  const { startSeconds, endSeconds } = options;
  let found = false;
  await readPacketTimes({
    binaries: options.binaries,
    args: buildPacketTimesArgs({
      input: options.input,
      httpHeaders: options.httpHeaders,
      videoBetween: { startSeconds, endSeconds },
    }),
    timeoutMs: 60_000,
    signal: options.signal,
    onPacket: (time) => {
      if (time >= startSeconds && time < endSeconds) found = true;
    },
  });
  return found;
}

type RawStream = {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  coded_width?: number;
  coded_height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  sample_aspect_ratio?: string;
  color_transfer?: string;
  duration?: string;
  start_time?: string;
  tags?: Record<string, string>;
  side_data_list?: { side_data_type?: string; rotation?: number | string }[];
  disposition?: Record<string, number>;
};

type RawFormat = {
  format_name?: string;
  duration?: string;
  start_time?: string;
  size?: string;
  bit_rate?: string;
};

/**
 * Pure: ffprobe's JSON → `MediaProbe`, or a `MediaProbeError` saying what is wrong with the file.
 * `measuredDurationSeconds` stands in when the header states no duration. Exported for tests.
 */
export function parseProbeJson(json: unknown, measuredDurationSeconds?: number): MediaProbe {
  const root = (json ?? {}) as { streams?: RawStream[]; format?: RawFormat };
  const streams = Array.isArray(root.streams) ? root.streams : [];
  const format = root.format ?? {};
  // Cover art in audio files shows up as a one-frame "video" stream: it is not a video.
  const video = streams.find(
    (stream) => stream.codec_type === "video" && stream.disposition?.attached_pic !== 1,
  );
  const audio = streams.find((stream) => stream.codec_type === "audio");

  if (streams.length === 0) {
    throw new MediaProbeError("unreadable", "This file has no audio or video streams we can read.");
  }
  if (!video) {
    throw new MediaProbeError(
      "no-video",
      audio ? "This file has no video stream (it is audio only)." : "This file has no video stream.",
    );
  }

  const codedWidth = positiveInt(video.width) ?? positiveInt(video.coded_width);
  const codedHeight = positiveInt(video.height) ?? positiveInt(video.coded_height);
  if (!codedWidth || !codedHeight) {
    throw new MediaProbeError("unreadable", "The video stream has no picture size (its header is damaged).");
  }

  const headerDurationSeconds =
    positiveNumber(format.duration) ??
    Math.max(0, ...streams.map((stream) => positiveNumber(stream.duration) ?? 0));
  const durationSeconds = headerDurationSeconds || (positiveNumber(measuredDurationSeconds) ?? 0);
  if (!durationSeconds) {
    throw new MediaProbeError("empty", "This file has no playable duration (it is empty or cut short).");
  }

  // A picture that stops early (a recording whose video track ended, the sound running on):
  // where it ends, on the file's clock, from the stream's own start and duration.
  const videoStreamSeconds = positiveNumber(video.duration);
  const pictureEnd = videoStreamSeconds
    ? (finiteNumber(video.start_time) ?? 0) - (finiteNumber(format.start_time) ?? 0) + videoStreamSeconds
    : null;
  const pictureEndSeconds =
    pictureEnd !== null && pictureEnd <= durationSeconds - 1
      ? Math.max(0, Math.round(pictureEnd * 1000) / 1000)
      : null;

  const rotationDegrees = rotationOf(video);
  const quarterTurn = rotationDegrees === 90 || rotationDegrees === 270;
  // Non-square pixels (anamorphic HDV and DV: 1440×1080 shown 16:9) are shown wider or
  // narrower than they are stored; what counts is the picture as shown.
  const sampleAspectRatio = sampleAspectRatioOf(video.sample_aspect_ratio);
  const shownWidth = sampleAspectRatio === 1 ? codedWidth : evenAtLeastTwo(codedWidth * sampleAspectRatio);
  const realFps = parseRate(video.r_frame_rate);
  const averageFps = parseRate(video.avg_frame_rate);
  const fps = averageFps ?? realFps ?? 0;

  return {
    durationSeconds,
    width: quarterTurn ? codedHeight : shownWidth,
    height: quarterTurn ? shownWidth : codedHeight,
    codedWidth,
    codedHeight,
    sampleAspectRatio,
    rotationDegrees,
    fps: Math.round(fps * 1000) / 1000,
    isVariableFrameRate: isVariableFrameRate(realFps, averageFps),
    hasVideo: true,
    hasAudio: audio !== undefined,
    videoCodec: video.codec_name ?? null,
    audioCodec: audio?.codec_name ?? null,
    bitrateBitsPerSecond: positiveInt(format.bit_rate) ?? null,
    formatName: format.format_name ?? "unknown",
    sizeBytes: positiveInt(format.size) ?? null,
    dynamicRange: dynamicRangeOfTransfer(video.color_transfer),
    pictureEndSeconds,
  };
}

/**
 * Clockwise degrees the picture must turn to be shown upright. Newer ffprobe reports a display
 * matrix whose `rotation` is counter-clockwise; older builds (and some files) carry a `rotate`
 * tag that is already clockwise.
 */
function rotationOf(stream: RawStream): MediaProbe["rotationDegrees"] {
  const matrix = stream.side_data_list?.find(
    (entry) => entry.side_data_type === "Display Matrix" && entry.rotation !== undefined,
  );
  let clockwise: number | undefined;
  if (matrix) clockwise = -Number(matrix.rotation);
  else if (stream.tags?.rotate !== undefined) clockwise = Number(stream.tags.rotate);
  if (clockwise === undefined || !Number.isFinite(clockwise)) return 0;
  const quarterTurns = Math.round((((clockwise % 360) + 360) % 360) / 90) % 4;
  return ([0, 90, 180, 270] as const)[quarterTurns] ?? 0;
}

/** `4:3` → 1.333; square, unknown (`0:1`, `N/A`) or within 1% of square → 1. */
function sampleAspectRatioOf(ratio: string | undefined): number {
  const [width, height] = (ratio ?? "").split(":").map(Number);
  const value = width! / height!;
  if (!Number.isFinite(value) || value <= 0 || Math.abs(value - 1) < 0.01) return 1;
  return Math.round(value * 10_000) / 10_000;
}

const evenAtLeastTwo = (value: number) => Math.max(2, Math.round(value / 2) * 2);

/**
 * A stream is variable-frame-rate when its nominal rate (`r_frame_rate`, the lowest rate that
 * represents all timestamps) and its average rate disagree by more than 1%: constant-rate
 * files have them equal, phone and screen recordings that drop or stretch frames do not.
 */
export function isVariableFrameRate(realFps: number | undefined, averageFps: number | undefined): boolean {
  if (!realFps || !averageFps) return false;
  return Math.abs(realFps - averageFps) / Math.max(realFps, averageFps) > 0.01;
}

function parseRate(rate: string | undefined): number | undefined {
  if (!rate) return undefined;
  const [numerator, denominator = "1"] = rate.split("/");
  const value = Number(numerator) / Number(denominator);
  // ffprobe writes 0/0 for unknown rates; absurd rates come from broken timestamps.
  return Number.isFinite(value) && value > 0 && value < 1000 ? value : undefined;
}

function finiteNumber(value: string | undefined): number | undefined {
  const number = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(number) ? number : undefined;
}

function positiveNumber(value: string | number | undefined): number | undefined {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) && number > 0 ? number : undefined;
}

function positiveInt(value: string | number | undefined): number | undefined {
  const number = positiveNumber(value);
  return number === undefined ? undefined : Math.round(number);
}

const UNREADABLE_MESSAGE = "This file is not a video we can read: its data is invalid or corrupt.";

async function startsWithFtypBox(filePath: string): Promise<boolean> {
  try {
    const handle = await open(filePath, "r");
    try {
      const header = Buffer.alloc(8);
      await handle.read(header, 0, 8, 0);
      return header.subarray(4, 8).toString("latin1") === "ftyp";
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** ffprobe's failure → the reason a person can act on. */
function toProbeError(error: unknown, input: string, timeoutMs: number): MediaProbeError {
  if (!(error instanceof MediaCommandError)) {
    return new MediaProbeError("unreadable", "This file could not be read.", { cause: error });
  }
  const stderr = error.details.stderrTail;
  if (error.details.timedOut) {
    return new MediaProbeError(
      "timeout",
      `Reading the file's details took longer than ${Math.round(timeoutMs / 1000)} s.`,
      { cause: error },
    );
  }
  if (error.details.cancelled) {
    return new MediaProbeError("cancelled", "Reading the file was cancelled.", { cause: error });
  }
  if (error.interrupted) {
    return new MediaProbeError(
      "interrupted",
      "Reading the file was interrupted on our side (ffprobe stopped or could not start).",
      { cause: error },
    );
  }
  const { kind, message } = describeProbeFailure(stderr, input);
  return new MediaProbeError(kind, message, { cause: error });
}

/**
 * What ffprobe's error output means for the person whose file it is. ffprobe names its input
 * at the start of its error lines, and the worker's input is a presigned URL: that is never
 * repeated (it is internal, and it carries a credential); only what ffprobe said of it is.
 */
export function describeProbeFailure(
  stderr: string,
  input: string,
): { kind: Exclude<MediaProbeErrorKind, "timeout" | "cancelled" | "interrupted">; message: string } {
  const said = hideMediaInputNames(stderr.split(input).join(""), "");
  const http = /HTTP error (\d{3})|Server returned (\d{3}|[^\r\n]+)/i.exec(said);
  if (isHttpUrl(input) && http) {
    return {
      kind: "unreachable",
      message: `The video URL could not be fetched (${(http[1] ?? http[2] ?? "error").trim()}).`,
    };
  }
  if (
    isHttpUrl(input) &&
    /Connection refused|Connection reset|timed out|resolve|Network is unreachable|I\/O error|Input\/output error/i.test(
      said,
    )
  ) {
    return { kind: "unreachable", message: "The video URL could not be reached." };
  }
  if (/No such file or directory/i.test(said))
    return { kind: "not-found", message: "The file was not found." };
  if (/moov atom not found/i.test(said)) {
    return {
      kind: "truncated",
      message:
        "The file is incomplete: its index (the MP4 'moov' atom) is missing, usually because the upload or recording was cut short.",
    };
  }
  if (/End of file|Truncat|partial file/i.test(said)) {
    return { kind: "truncated", message: "The file ends early (it looks cut short)." };
  }
  // "Invalid argument": a demuxer took noise for its format (MP3 frame sync in random bytes).
  if (
    /Invalid data found|Invalid argument|could not find codec parameters|Unknown format|EBML header parsing failed/i.test(
      said,
    )
  ) {
    return { kind: "unreadable", message: UNREADABLE_MESSAGE };
  }
  // The last line, without the "<input>: " or "[demuxer @ 0x…] " that ffprobe puts before it.
  const lastLine = (said.trim().split("\n").at(-1) ?? "")
    .replace(/^\[[^\]]*\]\s*/, "")
    .replace(/^\s*:\s*/, "")
    .trim()
    .slice(0, 160);
  return { kind: "unreadable", message: `This file could not be read${lastLine ? ` (${lastLine})` : ""}.` };
}
