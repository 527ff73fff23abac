import { randomBytes } from "node:crypto";
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local fake of the Gemini API (generativelanguage.googleapis.com/v1beta), for tests and
 * offline development. It answers what the AI SDK's Google provider calls for `generateText`
 * and `streamText`:
 *
 *   POST /v1beta/models/{model}:generateContent
 *   POST /v1beta/models/{model}:streamGenerateContent?alt=sse
 *
 * and behaves like the real service where it matters to a client:
 * - the API key comes in `x-goog-api-key` (or `?key=`); none → 403 PERMISSION_DENIED, a wrong
 *   one → 400 INVALID_ARGUMENT with reason API_KEY_INVALID (what Google really returns);
 * - errors use Google's envelope `{"error":{"code","message","status","details"}}`;
 * - a body that is not JSON, has no `contents`, or exceeds the 100 MB payload limit → 400;
 * - an unknown model (when `models` is given) → 404 NOT_FOUND;
 * - success is `candidates[0].content.parts[0].text` (the JSON text for structured output),
 *   `finishReason`, `usageMetadata`, `modelVersion`, `responseId`.
 * Scripted behaviours add rate limits (429 RESOURCE_EXHAUSTED with RetryInfo, optionally a
 * `Retry-After` header), server errors, malformed output, blocked answers and slow or hanging
 * responses. Every request is recorded in `requests` so tests can assert what was sent.
 */

export type FakeGeminiRequest = {
  method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-flash-latest:generateContent`. */
  path: string;
  model: string | null;
  action: "generateContent" | "streamGenerateContent" | null;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; null when it was not JSON or exceeded the payload limit. */
  body: unknown;
  bodyBytes: number;
};

type Timing = {
  /** Wait this long before answering (the client may time out first). */
  delayMs?: number;
};

export type FakeGeminiBehaviour = Timing &
  (
    | {
        kind: "answer";
        /** The structured output (or a function of the request giving it); sent as the JSON text of the first part. */
        output: Record<string, unknown> | unknown[] | ((request: FakeGeminiRequest) => unknown);
        /** Default STOP; MAX_TOKENS truncates nothing by itself, it only reports. */
        finishReason?: "STOP" | "MAX_TOKENS";
      }
    | { kind: "rate-limit"; retryAfterSeconds?: number }
    | { kind: "server-error"; status?: 500 | 503 }
    /** 200, but the model's text is not the JSON asked for (default: cut off mid-object). */
    | { kind: "malformed-output"; text?: string }
    /** 200, but the HTTP body itself is not JSON (a broken proxy, a truncated response). */
    | { kind: "malformed-body" }
    /** The answer was withheld by the safety filter: finishReason SAFETY, no content. */
    | { kind: "blocked" }
    /** Never answers; the connection stays open until the client gives up or `stop()`. */
    | { kind: "hang" }
  );

export type FakeGeminiOptions = {
  /** 0 (default) picks a free port. */
  port?: number;
  /** The key the fake accepts. */
  apiKey?: string;
  /** One behaviour for every request, or one per request in order (the last one repeats). */
  behaviour: FakeGeminiBehaviour | FakeGeminiBehaviour[];
  /** Model ids the fake knows; any id when absent. */
  models?: string[];
  /** Request payload limit; Google's is 100 MB since 2026-01-12. */
  maxRequestBytes?: number;
};

export type FakeGemini = {
  /** The base URL to configure (`…/v1beta`), as `createGoogleGenerativeAI({ baseURL })` wants it. */
  url: string;
  origin: string;
  apiKey: string;
  requests: FakeGeminiRequest[];
  setBehaviour(behaviour: FakeGeminiBehaviour | FakeGeminiBehaviour[]): void;
  stop(): Promise<void>;
};

export const FAKE_GEMINI_API_KEY = "fake-gemini-key";
const DEFAULT_MAX_REQUEST_BYTES = 100 * 1024 * 1024;
const ROUTE = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

export async function startFakeGemini(options: FakeGeminiOptions): Promise<FakeGemini> {
  const apiKey = options.apiKey ?? FAKE_GEMINI_API_KEY;
  const maxRequestBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const requests: FakeGeminiRequest[] = [];
  let behaviours = toList(options.behaviour);
  let answered = 0;
  const pendingTimers = new Set<NodeJS.Timeout>();

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, "INTERNAL", `Fake Gemini failed: ${String(error)}`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const match = ROUTE.exec(url.pathname);
    const { body, bodyBytes, tooLarge } = await readJsonBody(req, maxRequestBytes);
    const request: FakeGeminiRequest = {
      method: req.method ?? "GET",
      path: `${url.pathname}${url.search}`,
      model: match?.[1] ? decodeURIComponent(match[1]) : null,
      action: (match?.[2] as FakeGeminiRequest["action"]) ?? null,
      headers: req.headers,
      body: body === invalidJson ? null : body,
      bodyBytes,
    };
    requests.push(request);

    if (!match || req.method !== "POST") {
      // Google answers unknown paths with 404 (an HTML page for some; JSON is kinder to clients).
      sendError(res, 404, "NOT_FOUND", `The requested URL ${url.pathname} was not found on this server.`);
      return;
    }
    const key = headerValue(req.headers["x-goog-api-key"]) ?? url.searchParams.get("key");
    if (!key) {
      sendError(
        res,
        403,
        "PERMISSION_DENIED",
        "Method doesn't allow unregistered callers (callers without established identity). " +
          "Please use API Key or other form of API consumer identity to call this API.",
      );
      return;
    }
    if (key !== apiKey) {
      sendError(res, 400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "API_KEY_INVALID",
          domain: "googleapis.com",
          metadata: { service: "generativelanguage.googleapis.com" },
        },
      ]);
      return;
    }
    if (tooLarge) {
      sendError(
        res,
        400,
        "INVALID_ARGUMENT",
        `Request payload size exceeds the limit: ${maxRequestBytes} bytes.`,
      );
      return;
    }
    if (body === invalidJson) {
      sendError(res, 400, "INVALID_ARGUMENT", "Invalid JSON payload received. Unexpected token.");
      return;
    }
    if (!isObject(body) || !Array.isArray(body.contents) || body.contents.length === 0) {
      sendError(
        res,
        400,
        "INVALID_ARGUMENT",
        "* GenerateContentRequest.contents: contents is not specified\n",
      );
      return;
    }
    const model = request.model ?? "";
    if (options.models && !options.models.includes(model)) {
      sendError(
        res,
        404,
        "NOT_FOUND",
        `models/${model} is not found for API version v1beta, or is not supported for generateContent. ` +
          "Call ListModels to see the list of available models and their supported methods.",
      );
      return;
    }

    const behaviour = behaviours[Math.min(answered, behaviours.length - 1)]!;
    answered++;
    if (behaviour.kind === "hang") return; // the socket stays open; stop() or the client ends it
    if (behaviour.delayMs) {
      const finished = await wait(behaviour.delayMs, res);
      if (!finished) return;
    }
    respond(res, behaviour, request, model, url.searchParams.get("alt") === "sse");
  }

  function wait(delayMs: number, res: ServerResponse): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        pendingTimers.delete(timer);
        resolve(true);
      }, delayMs);
      pendingTimers.add(timer);
      // The client gave up (timeout, abort): nothing to answer.
      res.once("close", () => {
        clearTimeout(timer);
        pendingTimers.delete(timer);
        resolve(false);
      });
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/v1beta`,
    origin,
    apiKey,
    requests,
    setBehaviour(next) {
      behaviours = toList(next);
      answered = 0;
    },
    async stop() {
      for (const timer of pendingTimers) clearTimeout(timer);
      pendingTimers.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function respond(
  res: ServerResponse,
  behaviour: Exclude<FakeGeminiBehaviour, { kind: "hang" }>,
  request: FakeGeminiRequest,
  model: string,
  asEventStream: boolean,
): void {
  switch (behaviour.kind) {
    case "rate-limit": {
      const retryDelaySeconds = behaviour.retryAfterSeconds ?? 30;
      if (behaviour.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(retryDelaySeconds));
      sendError(
        res,
        429,
        "RESOURCE_EXHAUSTED",
        "You exceeded your current quota, please check your plan and billing details. For more " +
          "information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
        [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [
              {
                quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                quotaId: "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
                quotaDimensions: { location: "global", model },
                quotaValue: "10",
              },
            ],
          },
          {
            "@type": "type.googleapis.com/google.rpc.Help",
            links: [
              {
                description: "Learn more about Gemini API quotas",
                url: "https://ai.google.dev/gemini-api/docs/rate-limits",
              },
            ],
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryDelaySeconds}s` },
        ],
      );
      return;
    }
    case "server-error":
      if (behaviour.status === 503) {
        sendError(res, 503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
      } else {
        sendError(
          res,
          500,
          "INTERNAL",
          "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
        );
      }
      return;
    case "malformed-body":
      res.writeHead(200, { "Content-Type": "application/json; charset=UTF-8" });
      res.end('{"candidates": [{"content": {"parts": [{"text": "{\\"moments\\": [');
      return;
    case "blocked":
      sendGenerateResponse(res, asEventStream, {
        candidates: [{ finishReason: "SAFETY", index: 0, safetyRatings: safetyRatings("HIGH") }],
        usageMetadata: usage(request, 0),
        modelVersion: model,
        responseId: responseId(),
      });
      return;
    case "malformed-output":
    case "answer": {
      const text =
        behaviour.kind === "answer"
          ? JSON.stringify(
              typeof behaviour.output === "function" ? behaviour.output(request) : behaviour.output,
            )
          : (behaviour.text ?? '{"moments": [{"startSeconds": 12.5, "endSeconds": 40, "title": "The');
      sendGenerateResponse(res, asEventStream, {
        candidates: [
          {
            content: { parts: [{ text }], role: "model" },
            finishReason: behaviour.kind === "answer" ? (behaviour.finishReason ?? "STOP") : "STOP",
            index: 0,
          },
        ],
        usageMetadata: usage(request, Math.ceil(text.length / 4)),
        modelVersion: model,
        responseId: responseId(),
      });
      return;
    }
  }
}

function sendGenerateResponse(res: ServerResponse, asEventStream: boolean, payload: unknown): void {
  if (asEventStream) {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    res.end(`data: ${JSON.stringify(payload)}\r\n\r\n`);
    return;
  }
  const body = JSON.stringify(payload);
  res.writeHead(200, {
    "Content-Type": "application/json; charset=UTF-8",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

function sendError(
  res: ServerResponse,
  code: number,
  status: string,
  message: string,
  details?: unknown[],
): void {
  const body = JSON.stringify({ error: { code, message, status, ...(details ? { details } : {}) } });
  res.writeHead(code, {
    "Content-Type": "application/json; charset=UTF-8",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

/**
 * Token counts in the shape Google reports them; a rough estimate (a video part as Gemini
 * would count a minute of it at low resolution), enough for clients that log usage.
 */
function usage(request: FakeGeminiRequest, candidatesTokenCount: number) {
  const parts = isObject(request.body) && Array.isArray(request.body.contents) ? request.body.contents : [];
  let textTokens = 0;
  let mediaParts = 0;
  for (const content of parts) {
    const contentParts = isObject(content) && Array.isArray(content.parts) ? content.parts : [];
    for (const part of contentParts) {
      if (isObject(part) && typeof part.text === "string") textTokens += Math.ceil(part.text.length / 4);
      if (isObject(part) && (part.inlineData || part.fileData)) mediaParts++;
    }
  }
  const promptTokenCount = textTokens + mediaParts * 60 * 102;
  return {
    promptTokenCount,
    candidatesTokenCount,
    totalTokenCount: promptTokenCount + candidatesTokenCount,
    promptTokensDetails: [
      { modality: "TEXT", tokenCount: textTokens },
      ...(mediaParts > 0 ? [{ modality: "VIDEO", tokenCount: mediaParts * 60 * 70 }] : []),
      ...(mediaParts > 0 ? [{ modality: "AUDIO", tokenCount: mediaParts * 60 * 32 }] : []),
    ],
  };
}

function safetyRatings(dangerousProbability: string) {
  return [
    { category: "HARM_CATEGORY_HATE_SPEECH", probability: "NEGLIGIBLE" },
    { category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: dangerousProbability, blocked: true },
    { category: "HARM_CATEGORY_HARASSMENT", probability: "NEGLIGIBLE" },
    { category: "HARM_CATEGORY_SEXUALLY_EXPLICIT", probability: "NEGLIGIBLE" },
  ];
}

function responseId(): string {
  return randomBytes(16).toString("base64url");
}

const invalidJson = Symbol("invalid JSON");

/** Reads the body, keeping at most `maxBytes` of it in memory (the rest is drained and counted). */
async function readJsonBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ body: unknown; bodyBytes: number; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let bodyBytes = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    bodyBytes += buffer.length;
    if (bodyBytes <= maxBytes) chunks.push(buffer);
  }
  if (bodyBytes > maxBytes) return { body: null, bodyBytes, tooLarge: true };
  if (bodyBytes === 0) return { body: null, bodyBytes, tooLarge: false };
  try {
    return {
      body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown,
      bodyBytes,
      tooLarge: false,
    };
  } catch {
    return { body: invalidJson, bodyBytes, tooLarge: false };
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toList(behaviour: FakeGeminiBehaviour | FakeGeminiBehaviour[]): FakeGeminiBehaviour[] {
  const list = Array.isArray(behaviour) ? behaviour : [behaviour];
  if (list.length === 0) throw new Error("startFakeGemini: give at least one behaviour");
  return list;
}
