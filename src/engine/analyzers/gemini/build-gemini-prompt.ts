import { targetChapterCount } from "@/engine/chapters/build-chapters";
import { formatTimestamp } from "@/engine/format-timestamp";
import type { MomentOptions } from "@/engine/types";

/**
 * The instructions and the task text sent with the video. Pure, so the wording is pinned by a
 * test and the numbers in it (duration, limits, counts) always match what the clamping enforces.
 */

/**
 * Past this length only the clips' own speech is transcribed: a verbatim transcript of a long
 * video would not fit in the answer (about 65k output tokens), and captions need only the clips.
 */
export const FULL_TRANSCRIPT_MAX_SECONDS = 30 * 60;
/** The engine's own limit on clips per video (types.ts: at most 20). */
const MAX_MOMENTS = 20;

export const GEMINI_INSTRUCTIONS = [
  "You are an experienced short-form video editor.",
  "You watch a long video and pick the moments that work as standalone vertical clips",
  "for YouTube Shorts, TikTok, Twitch and Discord: a clear hook in the first seconds, a payoff,",
  "and no need for the surrounding context.",
  "Give every time as seconds from the start of the video, as a number.",
  "Judge on an absolute scale that is the same for every video: do not inflate scores",
  "because a video has nothing better.",
].join(" ");

export function momentsToRequest(topN: number): number {
  // A few more than will be kept, so the fusion with the local signals has a choice.
  return Math.min(MAX_MOMENTS, topN + 5);
}

export function buildGeminiPrompt(options: {
  durationSeconds: number;
  momentOptions: Pick<MomentOptions, "topN" | "minSeconds" | "maxSeconds">;
}): { instructions: string; text: string } {
  const { durationSeconds, momentOptions } = options;
  const { minSeconds, maxSeconds, topN } = momentOptions;
  const duration = `${Math.round(durationSeconds * 10) / 10} seconds (${formatTimestamp(durationSeconds)})`;
  const chapterCount = targetChapterCount(durationSeconds);
  const fullTranscript = durationSeconds <= FULL_TRANSCRIPT_MAX_SECONDS;

  const lines = [
    `The video is ${duration} long. Every time you give must lie between 0 and ${Math.floor(durationSeconds * 100) / 100}.`,
    "",
    `1. moments: up to ${momentsToRequest(topN)} clips, best first, that do not overlap.`,
    `   Each is ${minSeconds} to ${maxSeconds} seconds long and starts at its hook, not before it.`,
    "   score: 0–100 for how likely the clip is to do well as a short on its own.",
    "   reasons: 1–4 short reasons, each with the time inside the clip it refers to.",
    "   hookLine: the opening line or an on-screen caption that would stop a viewer scrolling.",
    "   platformCopy: for youtube (title ≤ 100 characters, a description, 3–5 hashtags),",
    "   tiktok (a punchy caption as description, 3–8 hashtags), twitch (a clip title, a short",
    "   description) and discord (a one-line title and a short message as description).",
    `2. chapters: ${chapterCount === 1 ? "1" : `about ${chapterCount}`}, in order, covering the whole video; the first starts at 0;`,
    "   each at least 10 seconds long, with a short descriptive title.",
    fullTranscript
      ? "3. transcript: everything said, verbatim, in the original language, as segments of a sentence or two with their start and end."
      : "3. transcript: what is said inside the clips you chose (not the whole video), verbatim, in the original language, as segments of a sentence or two with their start and end.",
    "   An empty list when nothing is said.",
  ];
  return { instructions: GEMINI_INSTRUCTIONS, text: lines.join("\n") };
}
