import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { scoreRange } from "@/engine/scoring/score-range";
import type { AnalysisResult } from "@/engine/types";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";
import {
  type FakeGemini,
  type FakeGeminiBehaviour,
  startFakeGemini,
} from "../../../../dev/fakes/gemini-server";
import { clampGeminiAnalysis } from "./clamp-gemini-analysis";
import { fusedScore, fuseWithLocal } from "./fuse-with-local";
import { createGeminiAnalyzer } from "./gemini-analyzer";
import {
  DURATION_SECONDS,
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
 * The Gemini analyzer over real HTTP against the local fake of the Gemini API
 * (dev/fakes/gemini-server.ts), through the real AI SDK and Google provider.
 */

const MODEL_ID = "gemini-flash-latest";
let fake: FakeGemini | undefined;

async function startWith(behaviour: FakeGeminiBehaviour | FakeGeminiBehaviour[]) {
  fake = await startFakeGemini({ behaviour });
  return fake;
}

afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

function analyzerFor(
  server: FakeGemini,
  overrides: Partial<Parameters<typeof createGeminiAnalyzer>[0]> = {},
) {
  const local = fixedLocalAnalyzer();
  const analyzer = createGeminiAnalyzer({
    apiKey: server.apiKey,
    modelId: MODEL_ID,
    baseUrl: server.url,
    local,
    maxRetries: 0,
    timeoutMs: 10_000,
    ...overrides,
  });
  return { analyzer, local };
}

type GenerateContentBody = {
  contents: Array<{ role: string; parts: Array<Record<string, unknown>> }>;
  generationConfig: {
    responseMimeType?: string;
    responseJsonSchema?: { properties?: Record<string, unknown> };
    mediaResolution?: string;
  };
  systemInstruction?: { parts: Array<{ text: string }> };
};

function sentBody(server: FakeGemini, index = 0): GenerateContentBody {
  return server.requests[index]!.body as GenerateContentBody;
}

function expectLocalFallback(result: AnalysisResult, reason: string | RegExp) {
  expect(result.analyzer).toBe("local");
  expect(result.moments).toEqual(LOCAL_RESULT.moments);
  expect(result.chapters).toEqual(LOCAL_RESULT.chapters);
  expect(result.fallbackReason).toMatch(reason);
  expect(result.fallbackReason).toMatch(/; local analysis used\.$/);
}

describe("Gemini analyzer against the fake Gemini API", () => {
  it("fuses Gemini's moments with the local result", async () => {
    const server = await startWith({ kind: "answer", output: geminiAnswer() });
    const { analyzer, local } = analyzerFor(server);
    const input = makeInput({ sourceUrl: SIGNED_SOURCE_URL });

    const result = await analyzer.analyze(input);

    expect(local.calls).toBe(1);
    expect(result.analyzer).toBe("gemini");
    expect(result.fallbackReason).toBeNull();
    const burst = scoreRange({
      signals: input.signals,
      range: { startSeconds: 40, endSeconds: 55 },
      weights: WEIGHTS,
    });
    // The crash (40–55) only Gemini found: local side measured from the signals.
    // The opening joke (11–26) matches the local 10–25 clip: local side is that clip's.
    // The local 70–90 clip Gemini did not pick: G = min(62, lowest Gemini score 80) = 62.
    const expected = [
      { start: 40, end: 55, score: fusedScore(80, burst.score), title: "The big crash" },
      { start: 11, end: 26, score: fusedScore(90, 40), title: "The opening joke" },
      { start: 70, end: 90, score: fusedScore(62, 62), title: "Loud stretch at 1:10" },
    ].sort((a, b) => b.score - a.score);
    expect(burst.score).toBeGreaterThan(50);
    expect(result.moments.map((m) => [m.startSeconds, m.endSeconds, m.score, m.title])).toEqual(
      expected.map((m) => [m.start, m.end, m.score, m.title]),
    );
    expect(result.moments.map((m) => m.ordinal)).toEqual([0, 1, 2]);

    const joke = result.moments.find((m) => m.title === "The opening joke")!;
    expect(joke.subscores).toEqual(LOCAL_RESULT.moments[1]!.subscores);
    expect(joke.reasons).toEqual([
      { atSeconds: 12, text: "Gemini likes The opening joke" },
      { atSeconds: 12, text: "Speech starts right away" },
    ]);
    expect(joke.hookLine).toBe("Hook for The opening joke");
    expect(joke.platformCopy?.tiktok?.hashtags).toEqual(["#clips", "#shorts", "#FunnyMoments"]);
    const crash = result.moments.find((m) => m.title === "The big crash")!;
    expect(crash.subscores).toEqual(burst.subscores);
    expect(crash.reasons.map((r) => r.text)).toContain("Gemini likes The big crash");

    expect(result.chapters.map((c) => [c.startSeconds, c.endSeconds, c.title])).toEqual([
      [0, 38, "Intro"],
      [38, 80, "The crash"],
      [80, DURATION_SECONDS, "Wrap-up"],
    ]);
    expect(result.transcript).toHaveLength(2);
    expect(result.interestCurve).toEqual(LOCAL_RESULT.interestCurve);
  });

  it("sends the presigned https URL as a file part, the schema, and the API key", async () => {
    const server = await startWith({ kind: "answer", output: geminiAnswer() });
    const { analyzer } = analyzerFor(server);

    // The source file does not exist: with a URL, no proxy (no ffmpeg) is needed.
    await analyzer.analyze(makeInput({ sourceUrl: SIGNED_SOURCE_URL }));

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0]!;
    expect(request.path).toBe(`/v1beta/models/${MODEL_ID}:generateContent`);
    expect(request.headers["x-goog-api-key"]).toBe(server.apiKey);
    const body = sentBody(server);
    const parts = body.contents[0]!.parts;
    expect(parts[0]).toEqual({
      fileData: { mimeType: "video/mp4", fileUri: SIGNED_SOURCE_URL },
      videoMetadata: { fps: 1 },
    });
    expect(parts.some((part) => "inlineData" in part)).toBe(false);
    expect(String(parts[1]!.text)).toContain("120 seconds (2:00)");
    expect(String(parts[1]!.text)).toContain("10 to 30 seconds long");
    expect(body.systemInstruction?.parts[0]?.text).toContain("short-form video editor");
    expect(body.generationConfig.responseMimeType).toBe("application/json");
    expect(body.generationConfig.mediaResolution).toBe("MEDIA_RESOLUTION_LOW");
    const schema = body.generationConfig.responseJsonSchema!;
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(["chapters", "moments", "transcript"]);
    expect(JSON.stringify(schema)).toContain('"hookLine"');
    expect(JSON.stringify(schema)).toContain('"platformCopy"');
  });

  describe("with a local source file", () => {
    let workDir: string;
    let sourcePath: string;
    const shortInput = () =>
      makeInput({
        sourceFile: async () => sourcePath,
        probe: makeProbe({ durationSeconds: 20, sizeBytes: null }),
        signals: makeSignals(20),
        options: { topN: 2, minSeconds: 5, maxSeconds: 15, weights: WEIGHTS },
      });

    let privateTmp: string;
    const originalTmpdir = process.env.TMPDIR;

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(os.tmpdir(), "truss-gemini-test-"));
      sourcePath = path.join(workDir, "source.mp4");
      // This file's own temporary directory, so the leftovers check sees only its proxies.
      privateTmp = path.join(workDir, "tmp");
      await mkdir(privateTmp);
      process.env.TMPDIR = privateTmp;
      await runMedia({
        binaryPath: resolveMediaBinaries().ffmpegPath,
        args: [
          ...["-hide_banner", "-loglevel", "error", "-y"],
          ...["-f", "lavfi", "-i", "testsrc=size=640x360:rate=25:duration=20"],
          ...["-f", "lavfi", "-i", "sine=frequency=440:duration=20"],
          ...["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"],
          sourcePath,
        ],
        timeoutMs: 60_000,
      });
    }, 60_000);

    afterAll(async () => {
      if (originalTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = originalTmpdir;
      await rm(workDir, { recursive: true, force: true });
    });

    it("sends a low-resolution proxy inline when there is no usable URL", async () => {
      const server = await startWith({
        kind: "answer",
        output: geminiAnswer({
          moments: [geminiMoment({ startSeconds: 3, endSeconds: 11, score: 70 })],
          chapters: [],
          transcript: [],
        }),
      });
      const { analyzer } = analyzerFor(server);

      // An http URL (the embedded S3 emulator's) is not reachable by Google: proxy instead.
      const result = await analyzer.analyze({
        ...shortInput(),
        sourceUrl: "http://127.0.0.1:8701/truss-media/source.mp4?X-Amz-Signature=x",
      });

      expect(result.analyzer).toBe("gemini");
      const videoPart = sentBody(server).contents[0]!.parts[0] as {
        inlineData: { mimeType: string; data: string };
        videoMetadata: { fps: number };
      };
      expect(videoPart.inlineData.mimeType).toBe("video/mp4");
      expect(videoPart.videoMetadata).toEqual({ fps: 1 });
      const bytes = Buffer.from(videoPart.inlineData.data, "base64");
      // An MP4 starts with its `ftyp` box.
      expect(bytes.subarray(4, 8).toString("latin1")).toBe("ftyp");
      expect(bytes.length).toBeGreaterThan(1000);
      // 20 s at 1 fps and 360p with 32 kb/s audio: far smaller than the source.
      expect(bytes.length).toBeLessThan(200_000);
      expect(await readdir(privateTmp)).toEqual([]);
    });

    it("falls back when the proxy cannot be made", async () => {
      const server = await startWith({ kind: "answer", output: geminiAnswer() });
      const { analyzer } = analyzerFor(server);
      const result = await analyzer.analyze({
        ...shortInput(),
        sourceFile: async () => path.join(workDir, "missing.mp4"),
      });
      expectLocalFallback(result, /^Could not prepare the video for Gemini \(.*exited with code/);
      expect(server.requests).toHaveLength(0);
    });
  });

  it("clamps Gemini's moments to the video and the clip limits", async () => {
    const server = await startWith({
      kind: "answer",
      output: geminiAnswer({
        moments: [
          geminiMoment({ startSeconds: 110, endSeconds: 190, score: 95, title: "Past the end" }),
          geminiMoment({ startSeconds: 30, endSeconds: 33, score: 85, title: "Too short" }),
          geminiMoment({ startSeconds: 31, endSeconds: 45, score: 60, title: "Overlaps a better one" }),
          geminiMoment({ startSeconds: 60, endSeconds: 20, score: 99, title: "Inverted" }),
          geminiMoment({ startSeconds: -5, endSeconds: 50, score: 140, title: "Too long" }),
        ],
      }),
    });
    const { analyzer } = analyzerFor(server, { local: fixedLocalAnalyzer({ ...LOCAL_RESULT, moments: [] }) });

    const result = await analyzer.analyze(
      makeInput({ sourceUrl: SIGNED_SOURCE_URL, options: { ...makeInput().options, topN: 5 } }),
    );

    expect(result.analyzer).toBe("gemini");
    const byTitle = Object.fromEntries(result.moments.map((m) => [m.title, [m.startSeconds, m.endSeconds]]));
    // 110–190 → cut at the end of the video (120): 10 s, exactly the minimum.
    expect(byTitle["Past the end"]).toEqual([110, 120]);
    // -5–50 (score 140 → 100) → starts at 0, 30 s maximum.
    expect(byTitle["Too long"]).toEqual([0, 30]);
    // 30–33 → grown to 10 s from its start; it only touches "Too long" (0–30), which is allowed.
    expect(byTitle["Too short"]).toEqual([30, 40]);
    // 60–20 cannot be repaired; 31–45 overlaps the higher-scored 30–40.
    expect(byTitle.Inverted).toBeUndefined();
    expect(byTitle["Overlaps a better one"]).toBeUndefined();
    for (const moment of result.moments) {
      expect(moment.startSeconds).toBeGreaterThanOrEqual(0);
      expect(moment.endSeconds).toBeLessThanOrEqual(DURATION_SECONDS);
      expect(moment.endSeconds - moment.startSeconds).toBeGreaterThanOrEqual(10);
      expect(moment.endSeconds - moment.startSeconds).toBeLessThanOrEqual(30);
      expect(moment.score).toBeLessThanOrEqual(100);
    }
  });

  describe("falls back to the local result", () => {
    const input = () => makeInput({ sourceUrl: SIGNED_SOURCE_URL });

    it("when Gemini rate-limits the request (429)", async () => {
      const server = await startWith({ kind: "rate-limit" });
      const { analyzer, local } = analyzerFor(server);
      const result = await analyzer.analyze(input());
      expectLocalFallback(result, "Gemini rate-limited the request (429); local analysis used.");
      expect(result.fallbackReason).toBe("Gemini rate-limited the request (429); local analysis used.");
      expect(local.calls).toBe(1);
    });

    it("after retrying a 429 that names its Retry-After", async () => {
      const server = await startWith({ kind: "rate-limit", retryAfterSeconds: 0 });
      const { analyzer } = analyzerFor(server, { maxRetries: 1 });
      const result = await analyzer.analyze(input());
      expect(server.requests).toHaveLength(2);
      expectLocalFallback(result, "Gemini rate-limited the request (429) on all 2 attempts");
    });

    it("uses Gemini's answer when a retry succeeds", async () => {
      const server = await startWith([
        { kind: "rate-limit", retryAfterSeconds: 0 },
        { kind: "answer", output: geminiAnswer() },
      ]);
      const { analyzer } = analyzerFor(server, { maxRetries: 1 });
      const result = await analyzer.analyze(input());
      expect(server.requests).toHaveLength(2);
      expect(result.analyzer).toBe("gemini");
    });

    it("on a server error (500)", async () => {
      const server = await startWith({ kind: "server-error" });
      const result = await analyzerFor(server).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini had a server error (500 INTERNAL)");
    });

    it("when the model is overloaded (503)", async () => {
      const server = await startWith({ kind: "server-error", status: 503 });
      const result = await analyzerFor(server).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini had a server error (503 UNAVAILABLE)");
    });

    it("when the answer is not the JSON asked for", async () => {
      const server = await startWith({ kind: "malformed-output" });
      const result = await analyzerFor(server).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini's answer did not match the expected structure");
    });

    it("when the answer is JSON of the wrong shape", async () => {
      const server = await startWith({ kind: "answer", output: { moments: "none", chapters: [] } });
      const result = await analyzerFor(server).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini's answer did not match the expected structure");
    });

    it("when the HTTP body is not JSON", async () => {
      const server = await startWith({ kind: "malformed-body" });
      const result = await analyzerFor(server).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini's response could not be read");
    });

    it("when the safety filter blocks the answer", async () => {
      const server = await startWith({ kind: "blocked" });
      const result = await analyzerFor(server).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini withheld its answer (blocked by its safety filter)");
    });

    it("when Gemini is slower than the timeout", async () => {
      const server = await startWith({ kind: "answer", output: geminiAnswer(), delayMs: 5_000 });
      const started = Date.now();
      const result = await analyzerFor(server, { timeoutMs: 300 }).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini did not answer within 300 ms");
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it("when Gemini never answers", async () => {
      const server = await startWith({ kind: "hang" });
      const result = await analyzerFor(server, { timeoutMs: 1_500 }).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini did not answer within 1.5 s");
    });

    it("when Gemini cannot be reached", async () => {
      const server = await startWith({ kind: "answer", output: geminiAnswer() });
      const { analyzer } = analyzerFor(server);
      await server.stop();
      fake = undefined;
      const result = await analyzer.analyze(input());
      expectLocalFallback(result, /^Could not reach Gemini \(.*ECONNREFUSED/);
    });

    it("when the API key is wrong (Google answers 400 API_KEY_INVALID)", async () => {
      const server = await startWith({ kind: "answer", output: geminiAnswer() });
      const result = await analyzerFor(server, { apiKey: "not-the-key" }).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini rejected the API key (400 INVALID_ARGUMENT)");
    });

    it("when the model id is unknown (404)", async () => {
      fake = await startFakeGemini({
        behaviour: { kind: "answer", output: geminiAnswer() },
        models: ["gemini-3.5-flash"],
      });
      const result = await analyzerFor(fake, { modelId: "gemini-0.1-nope" }).analyzer.analyze(input());
      expectLocalFallback(result, 'Gemini does not offer the model "gemini-0.1-nope" (404)');
    });

    it("when none of Gemini's moments fit the video", async () => {
      const server = await startWith({
        kind: "answer",
        output: geminiAnswer({
          moments: [
            geminiMoment({ startSeconds: 130, endSeconds: 150 }),
            geminiMoment({ startSeconds: 50, endSeconds: 50 }),
          ],
        }),
      });
      const result = await analyzerFor(server).analyzer.analyze(input());
      expectLocalFallback(result, "None of Gemini's 2 moments fit the video and the clip limits");
    });

    it("when Gemini finds no moments", async () => {
      const server = await startWith({ kind: "answer", output: geminiAnswer({ moments: [] }) });
      const result = await analyzerFor(server).analyzer.analyze(input());
      expectLocalFallback(result, "Gemini found no moments");
    });
  });

  it("throws when the caller cancels, rather than falling back", async () => {
    const server = await startWith({ kind: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("job cancelled")), 200);
    await expect(
      analyzerFor(server).analyzer.analyze(
        makeInput({ sourceUrl: SIGNED_SOURCE_URL, signal: controller.signal }),
      ),
    ).rejects.toThrow("job cancelled");
  });

  it("propagates a failure of the local analyzer", async () => {
    const server = await startWith({ kind: "answer", output: geminiAnswer() });
    const failing = {
      name: "local" as const,
      analyze: async (): Promise<AnalysisResult> => {
        throw new Error("ffmpeg crashed");
      },
    };
    await expect(analyzerFor(server, { local: failing }).analyzer.analyze(makeInput())).rejects.toThrow(
      "ffmpeg crashed",
    );
    expect(server.requests).toHaveLength(0);
  });

  it("leaves out the local 'little stands out' beside Gemini's own reasons, not where it gave none", () => {
    const input = makeInput();
    const fused = fuseWithLocal({
      local: { ...structuredClone(LOCAL_RESULT), moments: [] },
      gemini: clampGeminiAnalysis(
        geminiAnswer({
          moments: [
            geminiMoment({ startSeconds: 85, endSeconds: 100, score: 70, title: "A quiet story" }),
            geminiMoment({ startSeconds: 0, endSeconds: 15, score: 60, title: "Unexplained", reasons: [] }),
          ],
        }),
        { durationSeconds: DURATION_SECONDS, minSeconds: 10, maxSeconds: 30 },
      ),
      input,
    });
    const reasonsOf = (title: string) =>
      fused.moments.find((m) => m.title === title)?.reasons.map((r) => r.text);

    // The signals are quiet in both ranges: the local scorer has only "little stands out" to say.
    for (const range of [
      { startSeconds: 85, endSeconds: 100 },
      { startSeconds: 0, endSeconds: 15 },
    ]) {
      const local = scoreRange({ signals: input.signals, range, weights: WEIGHTS });
      expect(local.reasons.map((r) => r.text)).toEqual([expect.stringMatching(/^Little stands out/)]);
    }
    expect(reasonsOf("A quiet story")).toEqual(["Gemini likes A quiet story"]);
    expect(reasonsOf("Unexplained")).toEqual([expect.stringMatching(/^Little stands out/)]);
  });

  it("agrees with the pure fusion of the same answer", async () => {
    const server = await startWith({ kind: "answer", output: geminiAnswer() });
    const input = makeInput({ sourceUrl: SIGNED_SOURCE_URL });
    const overHttp = await analyzerFor(server).analyzer.analyze(input);
    const direct = fuseWithLocal({
      local: structuredClone(LOCAL_RESULT),
      gemini: clampGeminiAnalysis(geminiAnswer(), {
        durationSeconds: DURATION_SECONDS,
        minSeconds: 10,
        maxSeconds: 30,
      }),
      input,
    });
    expect(overHttp).toEqual(direct);
  });
});
