import { z } from "zod";

/**
 * What we ask Gemini for, as a zod schema. The AI SDK turns it into the `responseJsonSchema`
 * of the request (so Gemini decodes against it) and validates the answer with it.
 *
 * The schema checks types only. Ranges (score 0–100, times inside the video, lengths) are
 * stated in the descriptions for the model and enforced afterwards by clamping
 * (`clamp-gemini-analysis.ts`): one score of 101 should cost that value, not the whole answer.
 */

const seconds = (what: string) =>
  z.number().describe(`${what}, in seconds from the start of the video (a number, e.g. 75.5)`);

const PlatformCopySchema = z.object({
  title: z.string().describe("Title for this platform, at most 100 characters"),
  description: z.string().describe("Description or caption for this platform, at most 2000 characters"),
  hashtags: z.array(z.string()).describe("3 to 8 hashtags, each starting with #"),
});

export const GeminiMomentSchema = z.object({
  startSeconds: seconds("Where the clip starts (at its hook)"),
  endSeconds: seconds("Where the clip ends"),
  title: z.string().describe("A short, specific title for the clip"),
  hookLine: z.string().describe("The line or caption that hooks a viewer in the first seconds"),
  score: z
    .number()
    .describe(
      "Virality potential from 0 to 100, judged on an absolute scale across all videos: " +
        "a dull video's best moment scores low (under 40); 80+ is rare",
    ),
  reasons: z
    .array(
      z.object({
        atSeconds: seconds("The moment this reason talks about (inside the clip)"),
        text: z.string().describe("Why this works, in one sentence a creator can act on"),
      }),
    )
    .describe("1 to 4 reasons, each tied to a timestamp inside the clip"),
  platformCopy: z
    .object({
      youtube: PlatformCopySchema,
      tiktok: PlatformCopySchema,
      twitch: PlatformCopySchema,
      discord: PlatformCopySchema,
    })
    .describe("Suggested copy per platform for posting this clip"),
});

export const GeminiAnalysisSchema = z.object({
  moments: z.array(GeminiMomentSchema).describe("The best standalone short-form clips, best first"),
  chapters: z
    .array(
      z.object({
        startSeconds: seconds("Where the chapter starts; the first chapter starts at 0"),
        title: z.string().describe("A short chapter title"),
      }),
    )
    .describe("Chapters covering the whole video in order, each at least 10 seconds long"),
  transcript: z
    .array(
      z.object({
        startSeconds: seconds("Where the spoken segment starts"),
        endSeconds: seconds("Where the spoken segment ends"),
        text: z.string().describe("What is said, verbatim, in the original language"),
      }),
    )
    .describe("Timed transcript segments of a sentence or two each; empty if nothing is said"),
});

export type GeminiAnalysis = z.infer<typeof GeminiAnalysisSchema>;
export type GeminiMoment = z.infer<typeof GeminiMomentSchema>;
