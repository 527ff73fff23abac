import type { Config } from "@/config";
import type { Analyzer } from "@/engine/types";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";

/**
 * The analyzer the configuration asks for: Gemini fused with the local signals when a
 * GOOGLE_GENERATIVE_AI_API_KEY is set, otherwise the local analyzer alone. The Gemini module
 * (the AI SDK and its provider, ~25 MB resident) is loaded on the first analysis that needs
 * it, so a worker without a key never holds it beside a render.
 */
export function createAnalyzer(options: { analysisConfig: Config["analysis"]; local: Analyzer }): Analyzer {
  const { analysisConfig, local } = options;
  const apiKey = analysisConfig.geminiApiKey;
  if (!apiKey) return local;
  const { ffmpegPath, ffprobePath } = analysisConfig;
  let gemini: Promise<Analyzer> | undefined;
  return {
    name: "gemini",
    async analyze(input) {
      gemini ??= import("./gemini/gemini-analyzer").then(({ createGeminiAnalyzer }) =>
        createGeminiAnalyzer({
          apiKey,
          modelId: analysisConfig.geminiModel,
          baseUrl: analysisConfig.geminiBaseUrl,
          local,
          resolveBinaries: () => resolveMediaBinaries({ ffmpegPath, ffprobePath }),
        }),
      );
      return (await gemini).analyze(input);
    },
  };
}
