/**
 * ffprobe arguments for reading a source's streams and container as JSON. Pure, so it is unit
 * tested; `probe.ts` runs it through `runMedia`.
 */

const HTTP_URL = /^https?:\/\//i;

/** True when the input is an http(s) URL rather than a local path. */
export function isHttpUrl(input: string): boolean {
  return HTTP_URL.test(input);
}

/**
 * How an input is named on an ffmpeg/ffprobe command line. Local paths get the `file:` protocol
 * prefix so a name starting with `-` or containing `:` is never read as an option or another
 * protocol; http(s) URLs pass as they are. Anything else (ftp:, concat:, data:, …) is refused,
 * because a presigned S3 GET or a local file are the only inputs the engine is meant to read.
 */
export function toMediaInputArg(input: string): string {
  if (isHttpUrl(input)) return input;
  if (/^[a-z][a-z0-9+.-]*:/i.test(input) && !/^[a-z]:[\\/]/i.test(input)) {
    throw new Error(`Unsupported input "${input.slice(0, 60)}": give a file path or an http(s) URL`);
  }
  return `file:${input}`;
}

/**
 * ffmpeg and ffprobe start an error line with the input's name; the worker's inputs are
 * presigned URLs (internal, carrying a credential) and paths on the worker. Where such a line
 * is shown to a person, each name becomes `replacement`.
 */
export function hideMediaInputNames(text: string, replacement: string): string {
  return text.replace(/(?:https?:\/\/|file:)\S*?(?=:\s|\s|$)/gi, replacement);
}

/** Request headers sent with every HTTP request ffmpeg makes for a URL input (range reads too). */
export type HttpHeaders = Record<string, string>;

/**
 * Network reads use a read/write timeout (microseconds) so a stalled presigned URL fails
 * instead of hanging until the overall timeout; local files need none. `headers` (e.g.
 * `If-Match`, so only the object that was checked is read) go with every request.
 */
export function networkInputArgs(input: string, ioTimeoutMs: number, headers: HttpHeaders = {}): string[] {
  if (!isHttpUrl(input)) return [];
  const headerLines = Object.entries(headers).map(([name, value]) => {
    // A line break would smuggle in another header (or end the request's head).
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value) || !/^[A-Za-z0-9-]+$/.test(name))
      throw new Error(`Refusing HTTP header "${name.slice(0, 40)}" with a line break or odd name`);
    return `${name}: ${value}\r\n`;
  });
  return [
    "-rw_timeout",
    String(Math.round(ioTimeoutMs * 1000)),
    ...(headerLines.length > 0 ? ["-headers", headerLines.join("")] : []),
  ];
}

export function buildProbeArgs({
  input,
  ioTimeoutMs = 20_000,
  httpHeaders,
}: {
  input: string;
  ioTimeoutMs?: number;
  httpHeaders?: HttpHeaders;
}) {
  return [
    // Errors only on stderr: they are what we turn into a reason a person can read.
    "-v",
    "error",
    "-hide_banner",
    ...networkInputArgs(input, ioTimeoutMs, httpHeaders),
    "-print_format",
    "json",
    "-show_format",
    "-show_streams",
    toMediaInputArg(input),
  ];
}

/**
 * ffprobe arguments that list every packet's time and duration (`pts_time,duration_time` per
 * line): the demuxer reads the whole file, nothing is decoded. For files whose header carries
 * no duration, as a browser's MediaRecorder writes WebM.
 */
export function buildPacketTimesArgs({
  input,
  ioTimeoutMs = 20_000,
  httpHeaders,
  videoBetween,
}: {
  input: string;
  ioTimeoutMs?: number;
  httpHeaders?: HttpHeaders;
  /** Only the video's packets from about this time range (from the keyframe before it). */
  videoBetween?: { startSeconds: number; endSeconds: number };
}) {
  return [
    "-v",
    "error",
    "-hide_banner",
    ...networkInputArgs(input, ioTimeoutMs, httpHeaders),
    ...(videoBetween
      ? [
          "-select_streams",
          "v:0",
          "-read_intervals",
          `${videoBetween.startSeconds}%${videoBetween.endSeconds}`,
        ]
      : []),
    "-show_entries",
    "packet=pts_time,duration_time",
    "-of",
    "csv=p=0",
    toMediaInputArg(input),
  ];
}
