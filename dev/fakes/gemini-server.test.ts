import { afterEach, describe, expect, it } from "vitest";
import { type FakeGemini, type FakeGeminiOptions, startFakeGemini } from "./gemini-server";

let fake: FakeGemini | undefined;

async function start(options: Partial<FakeGeminiOptions> = {}) {
  fake = await startFakeGemini({ behaviour: { kind: "answer", output: { ok: true } }, ...options });
  return fake;
}

afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

const minimalRequest = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };

function post(server: FakeGemini, body: unknown, options: { key?: string | null; path?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const key = options.key === undefined ? server.apiKey : options.key;
  if (key !== null) headers["x-goog-api-key"] = key;
  return fetch(`${server.origin}${options.path ?? "/v1beta/models/gemini-flash-latest:generateContent"}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

describe("fake Gemini server", () => {
  it("answers generateContent like Gemini, with the output as the first part's JSON text", async () => {
    const server = await start({
      behaviour: { kind: "answer", output: (request) => ({ path: request.path }) },
    });
    const response = await post(server, minimalRequest);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      candidates: Array<{ content: { parts: Array<{ text: string }>; role: string }; finishReason: string }>;
      usageMetadata: { promptTokenCount: number; totalTokenCount: number };
      modelVersion: string;
      responseId: string;
    };
    expect(JSON.parse(body.candidates[0]!.content.parts[0]!.text)).toEqual({
      path: "/v1beta/models/gemini-flash-latest:generateContent",
    });
    expect(body.candidates[0]!.content.role).toBe("model");
    expect(body.candidates[0]!.finishReason).toBe("STOP");
    expect(body.modelVersion).toBe("gemini-flash-latest");
    expect(body.usageMetadata.totalTokenCount).toBeGreaterThan(body.usageMetadata.promptTokenCount);
    expect(server.requests[0]).toMatchObject({
      model: "gemini-flash-latest",
      action: "generateContent",
      body: minimalRequest,
    });
  });

  it("streams the answer as server-sent events", async () => {
    const server = await start();
    const response = await post(server, minimalRequest, {
      path: "/v1beta/models/gemini-flash-latest:streamGenerateContent?alt=sse",
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    expect(text).toMatch(/^data: \{.*"candidates".*\}\r\n\r\n$/s);
  });

  it("rejects a missing API key with 403 and a wrong one with 400 API_KEY_INVALID", async () => {
    const server = await start();
    const missing = await post(server, minimalRequest, { key: null });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toMatchObject({ error: { code: 403, status: "PERMISSION_DENIED" } });

    const wrong = await post(server, minimalRequest, { key: "nope" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      error: {
        code: 400,
        status: "INVALID_ARGUMENT",
        message: "API key not valid. Please pass a valid API key.",
        details: [{ reason: "API_KEY_INVALID" }],
      },
    });

    const byQuery = await post(server, minimalRequest, {
      key: null,
      path: `/v1beta/models/gemini-flash-latest:generateContent?key=${server.apiKey}`,
    });
    expect(byQuery.status).toBe(200);
  });

  it("rejects malformed and oversized requests, unknown models and paths", async () => {
    const server = await start({ models: ["gemini-flash-latest"], maxRequestBytes: 1_000 });
    expect((await post(server, "{not json")).status).toBe(400);
    const noContents = await post(server, { generationConfig: {} });
    expect(noContents.status).toBe(400);
    expect(((await noContents.json()) as { error: { message: string } }).error.message).toContain(
      "contents is not specified",
    );
    const tooLarge = await post(server, { contents: [{ parts: [{ text: "x".repeat(2_000) }] }] });
    expect(tooLarge.status).toBe(400);
    expect(((await tooLarge.json()) as { error: { message: string } }).error.message).toBe(
      "Request payload size exceeds the limit: 1000 bytes.",
    );
    const unknownModel = await post(server, minimalRequest, {
      path: "/v1beta/models/gemini-0:generateContent",
    });
    expect(unknownModel.status).toBe(404);
    expect(await unknownModel.json()).toMatchObject({ error: { status: "NOT_FOUND" } });
    expect((await post(server, minimalRequest, { path: "/v1beta/files" })).status).toBe(404);
  });

  it("rate-limits with Google's error body, RetryInfo and an optional Retry-After", async () => {
    const server = await start({ behaviour: { kind: "rate-limit", retryAfterSeconds: 7 } });
    const response = await post(server, minimalRequest);
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("7");
    const body = (await response.json()) as {
      error: { status: string; details: Array<Record<string, unknown>> };
    };
    expect(body.error.status).toBe("RESOURCE_EXHAUSTED");
    expect(body.error.details).toContainEqual({
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
      retryDelay: "7s",
    });
  });

  it("plays scripted behaviours in order, repeating the last", async () => {
    const server = await start({
      behaviour: [{ kind: "server-error", status: 503 }, { kind: "server-error" }, { kind: "blocked" }],
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await post(server, minimalRequest)).status);
    expect(statuses).toEqual([503, 500, 200, 200]);
    server.setBehaviour({ kind: "malformed-body" });
    const broken = await post(server, minimalRequest);
    await expect(broken.json()).rejects.toThrow();
  });

  it("answers late when told to, and stops with a request still hanging", async () => {
    const server = await start({
      behaviour: [{ kind: "answer", output: {}, delayMs: 300 }, { kind: "hang" }],
    });
    const started = Date.now();
    expect((await post(server, minimalRequest)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    const hanging = post(server, minimalRequest).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.stop();
    fake = undefined;
    expect(await hanging).toBeInstanceOf(Error);
  });
});
