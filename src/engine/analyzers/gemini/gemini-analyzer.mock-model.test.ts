import { MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import { scoreRange } from "@/engine/scoring/score-range";
import type { AnalysisResult } from "@/engine/types";
import { FULL_TRANSCRIPT_MAX_SECONDS } from "./build-gemini-prompt";
import { fusedScore } from "./fuse-with-local";
import type { GeminiAnalysis } from "./gemini-analysis-schema";
import { createGeminiAnalyzer } from "./gemini-analyzer";
import {
  fixedLocalAnalyzer,
  geminiAnswer,
  geminiMoment,
  LOCAL_RESULT,
  makeInput,
  makeProbe,
  makeSignals,
  SIGNED_SOURCE_URL,
  WEIGHTS,
} from "./gemini-test-fixtures";

/**
 * The fusion logic through the AI SDK's mock language model: the same `generateText` path as
 * production, without HTTP, so each rule of the fusion is pinned with exact numbers.
 */

/** What a V4 model's doGenerate resolves to (the mock's own type; no direct @ai-sdk/provider import). */
type GenerateResult = Awaited<ReturnType<MockLanguageModelV4["doGenerate"]>>;

function modelAnswering(answer: GeminiAnalysis | string, finishReason: "stop" | "length" = "stop") {
  const text = typeof answer === "string" ? answer : JSON.stringify(answer);
  const result: GenerateResult = {
    content: [{ type: "text", text }],
    finishReason: { unified: finishReason, raw: finishReason === "stop" ? "STOP" : "MAX_TOKENS" },
    usage: {
      inputTokens: { total: 12_000, noCache: 12_000, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 900, text: 900, reasoning: 0 },
    },
    warnings: [],
  };
  return new MockLanguageModelV4({ modelId: "gemini-mock", doGenerate: result });
}

/** The parts of the user message the model was called with: [video, task text]. */
function userParts(model: MockLanguageModelV4) {
  const user = model.doGenerateCalls[0]!.prompt.find((message) => message.role === "user");
  return user?.role === "user" ? user.content : [];
}

async function analyzeWith(
  answer: GeminiAnalysis | string,
  options: {
    input?: Parameters<typeof makeInput>[0];
    local?: AnalysisResult;
    finishReason?: "stop" | "length";
  } = {},
) {
  const model = modelAnswering(answer, options.finishReason);
  const analyzer = createGeminiAnalyzer({
    apiKey: "unused",
    modelId: "gemini-mock",
    local: fixedLocalAnalyzer(options.local ?? LOCAL_RESULT),
    model,
  });
  const result = await analyzer.analyze(makeInput({ sourceUrl: SIGNED_SOURCE_URL, ...options.input }));
  return { result, model };
}

describe("Gemini fusion (AI SDK mock model)", () => {
  it("keeps the top N by fused score and numbers them by rank", async () => {
    const { result } = await analyzeWith(geminiAnswer(), {
      input: { options: { topN: 2, minSeconds: 10, maxSeconds: 30, weights: WEIGHTS } },
    });
    const burstScore = scoreRange({
      signals: makeSignals(),
      range: { startSeconds: 40, endSeconds: 55 },
      weights: WEIGHTS,
    }).score;
    const candidates = [
      { title: "The big crash", score: fusedScore(80, burstScore) },
      { title: "The opening joke", score: fusedScore(90, 40) },
      { title: "Loud stretch at 1:10", score: fusedScore(62, 62) },
    ].sort((a, b) => b.score - a.score);

    expect(result.moments).toHaveLength(2);
    expect(result.moments.map((m) => ({ title: m.title, score: m.score }))).toEqual(candidates.slice(0, 2));
    expect(result.moments.map((m) => m.ordinal)).toEqual([0, 1]);
  });

  it("scores a local clip Gemini did not pick no higher than it measured", async () => {
    const { result } = await analyzeWith(
      geminiAnswer({ moments: [geminiMoment({ startSeconds: 40, endSeconds: 55, score: 30 })] }),
    );
    const local = result.moments.find((m) => m.startSeconds === 70)!;
    // G = min(local 62, lowest Gemini score 30) = 30 → 0.6·30 + 0.4·62 = 42.8 → 43.
    expect(local.score).toBe(43);
    expect(local.score).toBe(fusedScore(30, 62));
    expect(local.reasons).toEqual(LOCAL_RESULT.moments[0]!.reasons);
    expect(local.platformCopy).toBeNull();
  });

  it("keeps a Gemini-only clip only when it passes the limits", async () => {
    const { result } = await analyzeWith(
      geminiAnswer({
        moments: [
          geminiMoment({ startSeconds: 40, endSeconds: 55, score: 70, title: "Fits" }),
          geminiMoment({ startSeconds: 120, endSeconds: 140, score: 99, title: "Starts at the very end" }),
        ],
      }),
    );
    const titles = result.moments.map((m) => m.title);
    expect(titles).toContain("Fits");
    expect(titles).not.toContain("Starts at the very end");
  });

  it("reads the chat for clips only Gemini found", async () => {
    const messagesPerSecond = Array.from({ length: 120 }, (_, i) => (i >= 40 && i < 55 ? 2 : 0));
    const chat = { messagesPerSecond };
    const { result } = await analyzeWith(geminiAnswer(), { input: { chat } });
    const crash = result.moments.find((m) => m.title === "The big crash")!;
    // On the local analyzer's scale: 2 msg/s where the video is otherwise silent.
    const measured = scoreRange({
      signals: makeSignals(),
      range: { startSeconds: 40, endSeconds: 55 },
      weights: WEIGHTS,
      chat,
    });
    expect(measured.subscores.chat).toBeGreaterThan(80);
    expect(crash.subscores).toEqual(measured.subscores);
  });

  it("prefers local chapters when Gemini gives fewer than two usable ones", async () => {
    const { result } = await analyzeWith(
      geminiAnswer({
        chapters: [
          { startSeconds: 0, title: "Everything" },
          { startSeconds: 115, title: "Too short to be a chapter" },
        ],
      }),
    );
    expect(result.analyzer).toBe("gemini");
    expect(result.chapters).toEqual(LOCAL_RESULT.chapters);
  });

  it("keeps the creator's transcript over Gemini's", async () => {
    const creatorTranscript = [{ startSeconds: 1, endSeconds: 3, text: "From the creator's SRT." }];
    const { result } = await analyzeWith(geminiAnswer(), { input: { transcript: creatorTranscript } });
    expect(result.transcript).toEqual(creatorTranscript);
  });

  it("asks for structured output and sends the video part", async () => {
    const { model } = await analyzeWith(geminiAnswer());
    const call = model.doGenerateCalls[0]!;
    expect(call.responseFormat?.type).toBe("json");
    const schema = call.responseFormat?.type === "json" ? call.responseFormat.schema : undefined;
    expect(Object.keys((schema as { properties: object }).properties).sort()).toEqual([
      "chapters",
      "moments",
      "transcript",
    ]);
    const [video, text] = userParts(model);
    expect(video).toMatchObject({
      type: "file",
      mediaType: "video/mp4",
      data: { type: "url", url: new URL(SIGNED_SOURCE_URL) },
      providerOptions: { google: { videoMetadata: { fps: 1 } } },
    });
    expect(text).toMatchObject({ type: "text" });
    expect(call.providerOptions).toEqual({ google: { mediaResolution: "MEDIA_RESOLUTION_LOW" } });
  });

  it("samples long videos more sparsely and transcribes only the clips", async () => {
    const durationSeconds = 4 * 3600;
    const { model } = await analyzeWith(geminiAnswer(), {
      input: {
        probe: makeProbe({ durationSeconds, sizeBytes: 50_000_000 }),
        signals: makeSignals(durationSeconds),
      },
    });
    const [video, text] = userParts(model);
    const videoMetadata = video?.providerOptions?.google?.videoMetadata as { fps: number } | undefined;
    const fps = videoMetadata?.fps ?? Number.NaN;
    expect(fps).toBeLessThan(1);
    expect(fps).toBeGreaterThanOrEqual(0.1);
    expect(durationSeconds).toBeGreaterThan(FULL_TRANSCRIPT_MAX_SECONDS);
    expect(text?.type === "text" && text.text).toContain("inside the clips you chose");
  });

  it("falls back when the answer was cut off at the token limit", async () => {
    const { result } = await analyzeWith('{"moments": [{"startSeconds": 12', { finishReason: "length" });
    expect(result.analyzer).toBe("local");
    expect(result.fallbackReason).toBe(
      "Gemini's answer was cut off before it was complete; local analysis used.",
    );
  });
});
