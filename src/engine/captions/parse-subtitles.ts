import type { TranscriptSegment } from "@/engine/types";

/**
 * The largest subtitle file Truss takes from a creator: a few hours of speech is a few hundred
 * KB. Shared by the page (which checks before sending) and the server (which enforces it).
 */
export const MAX_SUBTITLE_FILE_BYTES = 2 * 1024 * 1024;

/** A subtitle file we could not turn into a single timed line, with the reason in plain words. */
export class SubtitleParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SubtitleParseError";
  }
}

// `00:01:02,345`, `00:01:02.345`, `01:02.345` (WebVTT may omit hours), and the sloppier
// `0:1:2,3` some tools write; fractions of any length are read as decimal seconds.
const TIMESTAMP = String.raw`(?:(\d{1,3}):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,9}))?`;
const TIMING_LINE = new RegExp(String.raw`^\s*${TIMESTAMP}\s*-->\s*${TIMESTAMP}(?:\s+.*)?$`);

/**
 * Parses an SRT or WebVTT file a creator uploaded into timed transcript segments, sorted by
 * start. The two formats share the cue shape (`start --> end` followed by text lines), so one
 * tolerant reader handles both: cue numbers and VTT identifiers are ignored, VTT cue settings,
 * NOTE/STYLE/REGION blocks and markup (`<i>`, `<v Speaker>`, `{\an8}`) are dropped, entities
 * decoded. A malformed cue (bad timestamp, end before start, no text) is skipped so one bad
 * line does not cost the whole file; a file with no usable cue at all is an error.
 */
export function parseSubtitles(text: string): TranscriptSegment[] {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const segments: TranscriptSegment[] = [];
  let sawTimingLine = false;
  let index = 0;

  while (index < lines.length) {
    const line = lines[index] ?? "";
    if (/^(NOTE|STYLE|REGION)(\s|$)/.test(line.trim())) {
      index = skipBlock(lines, index);
      continue;
    }
    const timing = line.includes("-->") ? parseTimingLine(line) : null;
    if (line.includes("-->")) sawTimingLine = true;
    index += 1;
    if (!timing) continue;

    // The cue text runs to the next blank line, or to the next timing line when a file forgot
    // the blank line between cues (then the line before it may be the next cue's number).
    const textLines: string[] = [];
    while (index < lines.length) {
      const next = lines[index] ?? "";
      if (next.trim() === "" || next.includes("-->")) break;
      textLines.push(next);
      index += 1;
    }
    if ((lines[index] ?? "").includes("-->") && /^\s*\d+\s*$/.test(textLines.at(-1) ?? "")) textLines.pop();

    const cueText = cleanCueText(textLines.join(" "));
    if (cueText === "" || timing.endSeconds <= timing.startSeconds) continue;
    segments.push({ ...timing, text: cueText });
  }

  if (segments.length === 0) {
    throw new SubtitleParseError(
      sawTimingLine
        ? "The subtitle file has no usable cue: every timing line was malformed or had no text."
        : "This is not an SRT or WebVTT file: it has no timing line such as 00:00:01,000 --> 00:00:02,000.",
    );
  }
  return segments.sort((a, b) => a.startSeconds - b.startSeconds || a.endSeconds - b.endSeconds);
}

function parseTimingLine(line: string): { startSeconds: number; endSeconds: number } | null {
  const match = TIMING_LINE.exec(line);
  if (!match) return null;
  const startSeconds = toSeconds(match.slice(1, 5));
  const endSeconds = toSeconds(match.slice(5, 9));
  if (startSeconds === null || endSeconds === null) return null;
  return { startSeconds, endSeconds };
}

function toSeconds([hours, minutes, seconds, fraction]: (string | undefined)[]): number | null {
  const m = Number(minutes);
  const s = Number(seconds);
  if (m >= 60 || s >= 60) return null;
  const fractionSeconds = fraction ? Number(fraction) / 10 ** fraction.length : 0;
  return Number(hours ?? 0) * 3600 + m * 60 + s + fractionSeconds;
}

function skipBlock(lines: string[], from: number): number {
  let index = from;
  while (index < lines.length && (lines[index] ?? "").trim() !== "") index += 1;
  return index;
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&nbsp;": " ",
  "&quot;": '"',
  "&#39;": "'",
  "&lrm;": "",
  "&rlm;": "",
};

function cleanCueText(raw: string): string {
  return raw
    .replace(/\{\\[^}]*\}/g, "") // SSA override tags some SRT files carry, e.g. {\an8}
    .replace(/<[^>]*>/g, "") // HTML-ish markup and VTT spans/inline timestamps
    .replace(/&(amp|lt|gt|nbsp|quot|#39|lrm|rlm);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, " ")
    .trim();
}
