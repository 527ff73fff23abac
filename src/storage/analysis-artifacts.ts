import { z } from "zod";
import { ClipOptions, DEFAULT_CLIP_OPTIONS } from "@/engine/clip-options";
import type { AnalysisResult, SignalCurve } from "@/engine/types";
import { type Bucket, readJsonObject, writeJsonObject } from "@/storage/object-io";
import { analysisObjectKey } from "@/storage/object-keys";

/**
 * The pipeline's stored stage results, one JSON object per stage under the video's
 * `analysis/` prefix. A stage whose result exists is not run again on a redelivered job, and
 * re-renders read the scene cuts and transcript from here. Each document names its format; a
 * document of another format is treated as absent (the stage runs again).
 */
const FORMAT_VERSION = 1;

const numbers = z.array(z.number());
const timeRange = z.object({ startSeconds: z.number(), endSeconds: z.number() });

// Loose objects: fields the engine adds later (e.g. optional per-second measures) survive a
// round trip through storage instead of being stripped.
const SignalCurveSchema = z.looseObject({
  mode: z.enum(["fast", "full"]),
  durationSeconds: z.number(),
  rmsDb: numbers,
  peakDb: numbers,
  momentaryLufs: numbers,
  sceneScore: numbers,
  motion: numbers,
  silences: z.array(timeRange),
  sceneCutsSeconds: numbers,
  keyframesSeconds: numbers.optional(),
}) satisfies z.ZodType<SignalCurve>;

const subscore = z.number();
const AnalysisResultSchema = z.looseObject({
  analyzer: z.enum(["local", "gemini"]),
  fallbackReason: z.string().nullable(),
  moments: z.array(
    z.object({
      ordinal: z.number().int().nonnegative(),
      startSeconds: z.number(),
      endSeconds: z.number(),
      score: z.number(),
      subscores: z.object({
        hook: subscore,
        audioEnergy: subscore,
        visualDynamics: subscore,
        speech: subscore,
        chat: subscore.nullable(),
      }),
      reasons: z.array(z.object({ atSeconds: z.number(), text: z.string() })),
      title: z.string(),
      hookLine: z.string().nullable(),
      platformCopy: z
        .partialRecord(
          z.enum(["youtube", "tiktok", "twitch", "discord"]),
          z.object({ title: z.string(), description: z.string(), hashtags: z.array(z.string()) }),
        )
        .nullable(),
    }),
  ),
  chapters: z.array(z.object({ startSeconds: z.number(), endSeconds: z.number(), title: z.string() })),
  transcript: z.array(z.object({ startSeconds: z.number(), endSeconds: z.number(), text: z.string() })),
  interestCurve: numbers,
}) satisfies z.ZodType<AnalysisResult>;

const artifact = <T extends z.ZodType>(data: T) =>
  z.object({ formatVersion: z.literal(FORMAT_VERSION), data });
const SignalsDocument = artifact(SignalCurveSchema);
// The clips asked for when the analysis was made: asked for others since, it is made again.
// Analyses stored before they were recorded were made with the defaults. The moments asked of
// the analysis are more than the clips when clips the creator edited are kept beside them.
const AnalysisDocument = artifact(AnalysisResultSchema).extend({
  clipOptions: ClipOptions.default(DEFAULT_CLIP_OPTIONS),
  momentsAskedFor: z.number().int().positive().optional(),
});

type VideoRef = Bucket & { creatorId: string; videoId: string; signal?: AbortSignal };

export const SIGNALS_ARTIFACT = "signals";
export const ANALYSIS_ARTIFACT = "analysis";

export async function readSignalsArtifact(options: VideoRef): Promise<SignalCurve | undefined> {
  const document = SignalsDocument.safeParse(
    await readJsonObject({
      ...options,
      key: analysisObjectKey(options.creatorId, options.videoId, SIGNALS_ARTIFACT),
    }),
  );
  return document.success ? document.data.data : undefined;
}

export async function writeSignalsArtifact(options: VideoRef & { signals: SignalCurve }): Promise<void> {
  await writeJsonObject({
    ...options,
    key: analysisObjectKey(options.creatorId, options.videoId, SIGNALS_ARTIFACT),
    value: { formatVersion: FORMAT_VERSION, data: options.signals },
  });
}

export async function readAnalysisArtifact(options: VideoRef): Promise<AnalysisResult | undefined> {
  return (await readAnalysisMadeFor(options))?.analysis;
}

/** The stored analysis with the clip options it was made for. */
export async function readAnalysisMadeFor(
  options: VideoRef,
): Promise<{ analysis: AnalysisResult; clipOptions: ClipOptions; momentsAskedFor: number } | undefined> {
  const document = AnalysisDocument.safeParse(
    await readJsonObject({
      ...options,
      key: analysisObjectKey(options.creatorId, options.videoId, ANALYSIS_ARTIFACT),
    }),
  );
  if (!document.success) return undefined;
  const { data, clipOptions, momentsAskedFor } = document.data;
  return {
    analysis: data as AnalysisResult,
    clipOptions,
    momentsAskedFor: momentsAskedFor ?? clipOptions.count,
  };
}

export async function writeAnalysisArtifact(
  options: VideoRef & { analysis: AnalysisResult; clipOptions: ClipOptions; momentsAskedFor: number },
): Promise<void> {
  await writeJsonObject({
    ...options,
    key: analysisObjectKey(options.creatorId, options.videoId, ANALYSIS_ARTIFACT),
    value: {
      formatVersion: FORMAT_VERSION,
      data: options.analysis,
      clipOptions: options.clipOptions,
      momentsAskedFor: options.momentsAskedFor,
    },
  });
}
