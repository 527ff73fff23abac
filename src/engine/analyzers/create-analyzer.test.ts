import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "@/config";
import { type FakeGemini, startFakeGemini } from "../../../dev/fakes/gemini-server";
import { createAnalyzer } from "./create-analyzer";
import {
  fixedLocalAnalyzer,
  geminiAnswer,
  makeInput,
  SIGNED_SOURCE_URL,
} from "./gemini/gemini-test-fixtures";

const analysisConfig = (environment: Record<string, string>) =>
  parseConfig(
    { TRUSS_DATA_DIR: "/tmp/truss-unused", ...environment },
    { readSecretFile: () => "x".repeat(32) },
  ).analysis;

let fake: FakeGemini | undefined;
afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

describe("createAnalyzer", () => {
  it("is the local analyzer when no Gemini key is configured", () => {
    const local = fixedLocalAnalyzer();
    expect(createAnalyzer({ analysisConfig: analysisConfig({}), local })).toBe(local);
  });

  it("is Gemini, with the configured model and base URL, when a key is set", async () => {
    fake = await startFakeGemini({ behaviour: { kind: "answer", output: geminiAnswer() } });
    const local = fixedLocalAnalyzer();
    const analyzer = createAnalyzer({
      analysisConfig: analysisConfig({
        GOOGLE_GENERATIVE_AI_API_KEY: fake.apiKey,
        GEMINI_MODEL: "gemini-3.5-flash",
        GEMINI_BASE_URL: fake.url,
      }),
      local,
    });
    expect(analyzer.name).toBe("gemini");

    const result = await analyzer.analyze(makeInput({ sourceUrl: SIGNED_SOURCE_URL }));

    expect(result.analyzer).toBe("gemini");
    expect(local.calls).toBe(1);
    expect(fake.requests.map((request) => request.path)).toEqual([
      "/v1beta/models/gemini-3.5-flash:generateContent",
    ]);
  });

  it("uses the default model id from the configuration", () => {
    expect(analysisConfig({ GOOGLE_GENERATIVE_AI_API_KEY: "k" }).geminiModel).toBe("gemini-flash-latest");
  });
});
