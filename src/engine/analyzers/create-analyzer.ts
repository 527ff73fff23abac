import type { Config } from "@/config";
import type { Analyzer } from "@/engine/types";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { createGeminiAnalyzer } from "./gemini/gemini-analyzer";

/**
 * The analyzer the configuration asks for: Gemini fused with the local signals when a
 * GOOGLE_GENERATIVE_AI_API_KEY is set, otherwise the local analyzer alone.
 */
export function createAnalyzer(options: { analysisConfig: Config["analysis"]; local: Analyzer }): Analyzer {
  const { analysisConfig, local } = options;
  if (!analysisConfig.geminiApiKey) return local;
  const { ffmpegPath, ffprobePath } = analysisConfig;
  return createGeminiAnalyzer({
    apiKey: analysisConfig.geminiApiKey,
    modelId: analysisConfig.geminiModel,
    baseUrl: analysisConfig.geminiBaseUrl,
    local,
    resolveBinaries: () => resolveMediaBinaries({ ffmpegPath, ffprobePath }),
  });
}
