import { createGoogleGenerativeAI, type GoogleLanguageModelOptions } from "@ai-sdk/google";
import { type FilePart, generateText, type LanguageModel, Output } from "ai";
import { type AnalysisInput, type AnalysisResult, type Analyzer, clipableSeconds } from "@/engine/types";
import { type MediaBinaries, resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { buildGeminiPrompt } from "./build-gemini-prompt";
import {
  chooseSampleFramesPerSecond,
  chooseVideoSource,
  MAX_INLINE_VIDEO_BYTES,
} from "./choose-video-source";
import { clampGeminiAnalysis } from "./clamp-gemini-analysis";
import { describeGeminiFailure, GeminiUnusableAnswerError } from "./describe-gemini-failure";
import { fuseWithLocal } from "./fuse-with-local";
import { type GeminiAnalysis, GeminiAnalysisSchema } from "./gemini-analysis-schema";
import { makeVideoProxy } from "./make-video-proxy";

export type GeminiAnalyzerOptions = {
  apiKey: string;
  modelId: string;
  /** Defaults to https://generativelanguage.googleapis.com/v1beta; tests point it at the fake. */
  baseUrl?: string;
  /** Runs first, always; its result stands whenever Gemini's cannot be used. */
  local: Analyzer;
  /** Budget for the whole Gemini call, retries included. */
  timeoutMs?: number;
  /** Retries of 429/5xx/network errors inside the budget (the AI SDK's backoff: 2 s, 4 s, …). */
  maxRetries?: number;
  fetch?: typeof globalThis.fetch;
  /** A ready language model (the AI SDK's mock in tests); replaces apiKey/modelId/baseUrl. */
  model?: Exclude<LanguageModel, string>;
  /** ffmpeg for the inline proxy, resolved on first use; the system's or the npm one by default. */
  resolveBinaries?: () => MediaBinaries;
};

/** Minutes of video take Gemini tens of seconds to a few minutes to watch. */
export const DEFAULT_GEMINI_TIMEOUT_MS = 10 * 60 * 1000;
const DEFAULT_MAX_RETRIES = 2;

/**
 * Gemini fused with the local signals. The local analyzer always runs first; Gemini then watches
 * the video (by URL, or a low-resolution proxy sent inline) and answers in a fixed structure,
 * which is clamped to the video and fused with the local result (fuse-with-local.ts).
 * Timeouts, rate limits, server and network errors, and unusable answers return the local
 * result with `fallbackReason` saying why; only cancellation through `input.signal` throws.
 */
export function createGeminiAnalyzer(options: GeminiAnalyzerOptions): Analyzer {
  const timeoutMs = options.timeoutMs ?? DEFAULT_GEMINI_TIMEOUT_MS;
  const model =
    options.model ??
    createGoogleGenerativeAI({ apiKey: options.apiKey, baseURL: options.baseUrl, fetch: options.fetch })(
      options.modelId,
    );
  const modelId = model.modelId;

  return {
    name: "gemini",
    async analyze(input: AnalysisInput): Promise<AnalysisResult> {
      const local = await options.local.analyze(input);
      try {
        const answer = await askGemini({
          input,
          model,
          timeoutMs,
          maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
          resolveBinaries: options.resolveBinaries ?? (() => resolveMediaBinaries()),
        });
        const clamped = clampGeminiAnalysis(answer, {
          durationSeconds: videoDurationSeconds(input),
          momentsEndSeconds: clipableSeconds(input.probe),
          minSeconds: input.options.minSeconds,
          maxSeconds: input.options.maxSeconds,
        });
        if (clamped.moments.length === 0) {
          throw new GeminiUnusableAnswerError(
            answer.moments.length === 0
              ? "Gemini found no moments"
              : `None of Gemini's ${answer.moments.length} moments fit the video and the clip limits`,
          );
        }
        return fuseWithLocal({ local, gemini: clamped, input });
      } catch (error) {
        // Cancellation is the caller's decision, not a Gemini failure: let it through.
        if (input.signal?.aborted) throw input.signal.reason ?? error;
        return {
          ...local,
          analyzer: "local",
          fallbackReason: describeGeminiFailure(error, { timeoutMs, modelId }),
        };
      }
    },
  };
}

async function askGemini(options: {
  input: AnalysisInput;
  model: Exclude<LanguageModel, string>;
  timeoutMs: number;
  maxRetries: number;
  resolveBinaries: () => MediaBinaries;
}): Promise<GeminiAnalysis> {
  const { input, model, timeoutMs, maxRetries } = options;
  const durationSeconds = videoDurationSeconds(input);
  const framesPerSecond = chooseSampleFramesPerSecond(durationSeconds);
  const video = await buildVideoPart({ input, framesPerSecond, resolveBinaries: options.resolveBinaries });
  const prompt = buildGeminiPrompt({ durationSeconds, momentOptions: input.options });

  const result = await generateText({
    model,
    instructions: prompt.instructions,
    // Google recommends the video before the text that asks about it.
    messages: [{ role: "user", content: [video, { type: "text", text: prompt.text }] }],
    output: Output.object({ schema: GeminiAnalysisSchema, name: "video_analysis" }),
    providerOptions: {
      // A low-resolution frame is enough to judge a moment, and keeps a long video in context.
      google: { mediaResolution: "MEDIA_RESOLUTION_LOW" } satisfies GoogleLanguageModelOptions,
    },
    timeout: timeoutMs,
    maxRetries,
    abortSignal: input.signal,
    // Never let the SDK download the source into this process: a URL is only sent when Gemini
    // can fetch it itself (choose-video-source.ts).
    experimental_download: async (requests) => requests.map(() => null),
  });
  if (result.finishReason === "content-filter") {
    throw new GeminiUnusableAnswerError("Gemini withheld its answer (blocked by its safety filter)");
  }
  return result.output;
}

async function buildVideoPart(options: {
  input: AnalysisInput;
  framesPerSecond: number;
  resolveBinaries: () => MediaBinaries;
}): Promise<FilePart> {
  const { input, framesPerSecond } = options;
  const plan = chooseVideoSource({ sourceUrl: input.sourceUrl, probe: input.probe });
  const providerOptions = { google: { videoMetadata: { fps: framesPerSecond } } };
  if (plan.kind === "url") {
    return { type: "file", data: plan.url, mediaType: plan.mediaType, providerOptions };
  }
  const bytes = await makeVideoProxy({
    sourcePath: await input.sourceFile(),
    probe: input.probe,
    framesPerSecond,
    maxBytes: MAX_INLINE_VIDEO_BYTES,
    binaries: options.resolveBinaries(),
    signal: input.signal,
  });
  return { type: "file", data: bytes, mediaType: plan.mediaType, providerOptions };
}

function videoDurationSeconds(input: AnalysisInput): number {
  return input.probe.durationSeconds > 0 ? input.probe.durationSeconds : input.signals.durationSeconds;
}
