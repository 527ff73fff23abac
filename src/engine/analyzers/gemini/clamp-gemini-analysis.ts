import { clamp } from "@/engine/curve-math";
import { formatTimestamp } from "@/engine/format-timestamp";
import { lengthSeconds, rangesOverlap, roundSeconds } from "@/engine/time-ranges";
import type { Chapter, PlatformCopy, Reason, ScoredMoment, TranscriptSegment } from "@/engine/types";
import type { GeminiAnalysis, GeminiMoment } from "./gemini-analysis-schema";

/**
 * Gemini's answer made safe for the rest of the engine. The model sees the video at about one
 * frame per second and writes timestamps as text, so its times can be off, past the end, or
 * inverted; its clips can be too short, too long or overlap. Everything is clamped to the
 * video and to the clip limits here; what cannot be repaired is dropped.
 */

export type ClampLimits = {
  durationSeconds: number;
  /** Moments end by here (where the picture ends); chapters and transcript cover the whole file. */
  momentsEndSeconds?: number;
  minSeconds: number;
  maxSeconds: number;
};

export type ClampedGeminiMoment = {
  startSeconds: number;
  endSeconds: number;
  /** Gemini's own judgement, 0..100. */
  score: number;
  title: string;
  hookLine: string | null;
  reasons: Reason[];
  platformCopy: NonNullable<ScoredMoment["platformCopy"]>;
};

export type ClampedGeminiAnalysis = {
  moments: ClampedGeminiMoment[];
  chapters: Chapter[];
  transcript: TranscriptSegment[];
};

/** YouTube ignores chapter lists with a chapter shorter than this. */
export const MIN_CHAPTER_SECONDS = 10;
const MAX_TITLE_CHARS = 100;
const MAX_DESCRIPTION_CHARS = 2000;
const MAX_HASHTAGS = 8;
const MAX_REASONS_PER_MOMENT = 4;

export function clampGeminiAnalysis(analysis: GeminiAnalysis, limits: ClampLimits): ClampedGeminiAnalysis {
  return {
    moments: clampGeminiMoments(analysis.moments, {
      ...limits,
      durationSeconds: Math.min(limits.durationSeconds, limits.momentsEndSeconds ?? Number.POSITIVE_INFINITY),
    }),
    chapters: clampGeminiChapters(analysis.chapters, limits.durationSeconds),
    transcript: clampGeminiTranscript(analysis.transcript, limits.durationSeconds),
  };
}

export function clampGeminiMoments(moments: GeminiMoment[], limits: ClampLimits): ClampedGeminiMoment[] {
  const { durationSeconds } = limits;
  if (!(durationSeconds > 0)) return [];
  // A video shorter than the minimum clip length can still give one clip: all of it.
  const minSeconds = Math.min(limits.minSeconds, durationSeconds);
  const maxSeconds = Math.max(limits.maxSeconds, minSeconds);

  const repaired: ClampedGeminiMoment[] = [];
  for (const moment of moments) {
    if (![moment.startSeconds, moment.endSeconds, moment.score].every(Number.isFinite)) continue;
    const range = fitRange(moment.startSeconds, moment.endSeconds, {
      durationSeconds,
      minSeconds,
      maxSeconds,
    });
    if (!range) continue;
    const clampTime = (seconds: number) =>
      roundSeconds(
        clamp(Number.isFinite(seconds) ? seconds : range.startSeconds, range.startSeconds, range.endSeconds),
      );
    repaired.push({
      ...range,
      score: Math.round(clamp(moment.score, 0, 100)),
      title: cleanText(moment.title, MAX_TITLE_CHARS) || `Moment at ${formatTimestamp(range.startSeconds)}`,
      hookLine: cleanText(moment.hookLine, MAX_TITLE_CHARS * 2) || null,
      reasons: moment.reasons
        .map((reason) => ({ atSeconds: clampTime(reason.atSeconds), text: cleanText(reason.text, 300) }))
        .filter((reason) => reason.text.length > 0)
        .slice(0, MAX_REASONS_PER_MOMENT),
      platformCopy: {
        youtube: cleanPlatformCopy(moment.platformCopy.youtube),
        tiktok: cleanPlatformCopy(moment.platformCopy.tiktok),
        twitch: cleanPlatformCopy(moment.platformCopy.twitch),
        discord: cleanPlatformCopy(moment.platformCopy.discord),
      },
    });
  }

  // Gemini lists its best first, but trust the scores: keep the better of two overlapping clips.
  const byScore = repaired
    .map((moment, index) => ({ moment, index }))
    .sort((a, b) => b.moment.score - a.moment.score || a.index - b.index)
    .map(({ moment }) => moment);
  const kept: ClampedGeminiMoment[] = [];
  for (const moment of byScore) {
    if (!kept.some((other) => rangesOverlap(other, moment))) kept.push(moment);
  }
  return kept;
}

/**
 * Clamps [start, end] into [0, duration] and brings its length within [min, max]:
 * a short clip grows past its end (the start is the hook; keep it), or backwards when the
 * video ends first; a long one loses its tail. Returns null when nothing sensible remains.
 */
export function fitRange(
  startSeconds: number,
  endSeconds: number,
  limits: ClampLimits,
): { startSeconds: number; endSeconds: number } | null {
  const { durationSeconds, minSeconds, maxSeconds } = limits;
  let start = clamp(startSeconds, 0, durationSeconds);
  let end = clamp(endSeconds, 0, durationSeconds);
  if (end <= start) return null;
  if (end - start < minSeconds) {
    end = Math.min(durationSeconds, start + minSeconds);
    start = Math.max(0, end - minSeconds);
  }
  if (end - start > maxSeconds) end = start + maxSeconds;
  const range = { startSeconds: roundSeconds(start), endSeconds: roundSeconds(end) };
  // Rounding can nudge a boundary by 5 ms; allow that much below the minimum.
  if (lengthSeconds(range) < minSeconds - 0.01 || lengthSeconds(range) <= 0) return null;
  return range;
}

/**
 * Chapters become contiguous: sorted, first at 0:00, each ending where the next starts and
 * the last at the end of the video; chapters under 10 s are folded into the one before.
 */
export function clampGeminiChapters(
  chapters: GeminiAnalysis["chapters"],
  durationSeconds: number,
): Chapter[] {
  if (!(durationSeconds > 0)) return [];
  const starts = chapters
    .filter((chapter) => Number.isFinite(chapter.startSeconds))
    .map((chapter) => ({
      startSeconds: roundSeconds(clamp(chapter.startSeconds, 0, durationSeconds)),
      title: cleanText(chapter.title, MAX_TITLE_CHARS),
    }))
    .filter((chapter) => chapter.title.length > 0 && chapter.startSeconds < durationSeconds)
    .sort((a, b) => a.startSeconds - b.startSeconds);
  const first = starts[0];
  if (!first) return [];
  first.startSeconds = 0;

  const kept: Array<{ startSeconds: number; title: string }> = [first];
  for (const chapter of starts.slice(1)) {
    const previous = kept.at(-1)!;
    if (chapter.startSeconds - previous.startSeconds >= MIN_CHAPTER_SECONDS) kept.push(chapter);
  }
  // The last chapter must also be long enough; otherwise it joins the one before.
  while (kept.length > 1 && durationSeconds - kept.at(-1)!.startSeconds < MIN_CHAPTER_SECONDS) kept.pop();

  return kept.map((chapter, index) => ({
    startSeconds: chapter.startSeconds,
    endSeconds: kept[index + 1]?.startSeconds ?? roundSeconds(durationSeconds),
    title: chapter.title,
  }));
}

/** Transcript segments inside the video, in order, not overlapping (an overlap trims the earlier one). */
export function clampGeminiTranscript(
  segments: GeminiAnalysis["transcript"],
  durationSeconds: number,
): TranscriptSegment[] {
  if (!(durationSeconds > 0)) return [];
  const cleaned = segments
    .filter((segment) => Number.isFinite(segment.startSeconds) && Number.isFinite(segment.endSeconds))
    .map((segment) => ({
      startSeconds: roundSeconds(clamp(segment.startSeconds, 0, durationSeconds)),
      endSeconds: roundSeconds(clamp(segment.endSeconds, 0, durationSeconds)),
      text: cleanText(segment.text, 1000),
    }))
    .filter((segment) => segment.text.length > 0 && segment.endSeconds > segment.startSeconds)
    .sort((a, b) => a.startSeconds - b.startSeconds);

  const result: TranscriptSegment[] = [];
  for (const segment of cleaned) {
    const previous = result.at(-1);
    if (previous && previous.endSeconds > segment.startSeconds) {
      previous.endSeconds = segment.startSeconds;
      if (previous.endSeconds <= previous.startSeconds) result.pop();
    }
    result.push(segment);
  }
  return result;
}

function cleanPlatformCopy(copy: PlatformCopy): PlatformCopy {
  const hashtags: string[] = [];
  for (const raw of copy.hashtags) {
    // "#Gaming Clips" → "#GamingClips"; hashtags cannot hold spaces or a second '#'.
    const tag = raw.replace(/[#\s]+/g, "").slice(0, 50);
    if (tag.length > 0 && !hashtags.some((kept) => kept.toLowerCase() === `#${tag}`.toLowerCase())) {
      hashtags.push(`#${tag}`);
    }
  }
  return {
    title: cleanText(copy.title, MAX_TITLE_CHARS),
    description: cleanText(copy.description, MAX_DESCRIPTION_CHARS, { keepNewlines: true }),
    hashtags: hashtags.slice(0, MAX_HASHTAGS),
  };
}

function cleanText(text: string, maxChars: number, options: { keepNewlines?: boolean } = {}): string {
  const collapsed = options.keepNewlines
    ? text.replace(/[^\S\n]+/g, " ").replace(/\n{3,}/g, "\n\n")
    : text.replace(/\s+/g, " ");
  const trimmed = collapsed.trim();
  return trimmed.length <= maxChars ? trimmed : `${trimmed.slice(0, maxChars - 1).trimEnd()}…`;
}
