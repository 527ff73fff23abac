import { APICallError, NoObjectGeneratedError, NoOutputGeneratedError, RetryError } from "ai";
import { MediaCommandError } from "@/media/run-ffmpeg";

/**
 * Why Gemini's answer could not be used, as one sentence for the video page
 * ("Gemini rate-limited the request (429); local analysis used.").
 */

/** Gemini answered, but nothing in the answer was usable (or it chose not to answer). */
export class GeminiUnusableAnswerError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "GeminiUnusableAnswerError";
  }
}

/** The video could not be prepared for sending (too large, ffmpeg failed). */
export class GeminiVideoPreparationError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(reason, options);
    this.name = "GeminiVideoPreparationError";
  }
}

const SUFFIX = "; local analysis used.";
const MAX_DETAIL_CHARS = 160;

export function describeGeminiFailure(
  error: unknown,
  context: { timeoutMs: number; modelId: string },
): string {
  return `${describeCause(error, context)}${SUFFIX}`;
}

function describeCause(error: unknown, context: { timeoutMs: number; modelId: string }): string {
  if (RetryError.isInstance(error)) {
    const attempts = error.errors.length;
    const last = describeCause(error.lastError, context);
    return error.reason === "maxRetriesExceeded" ? `${last} on all ${attempts} attempts` : last;
  }
  if (isTimeout(error)) return `Gemini did not answer within ${formatSeconds(context.timeoutMs)}`;
  if (APICallError.isInstance(error)) return describeApiCallError(error, context);
  if (NoObjectGeneratedError.isInstance(error)) {
    return error.finishReason === "length"
      ? "Gemini's answer was cut off before it was complete"
      : "Gemini's answer did not match the expected structure";
  }
  if (NoOutputGeneratedError.isInstance(error)) return "Gemini returned no answer";
  if (error instanceof GeminiUnusableAnswerError || error instanceof GeminiVideoPreparationError) {
    return error.reason;
  }
  if (error instanceof MediaCommandError) {
    return `Could not prepare the video for Gemini (${truncate(error.message)})`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Gemini analysis failed (${truncate(message)})`;
}

function describeApiCallError(error: APICallError, context: { modelId: string }): string {
  const status = error.statusCode;
  const google = readGoogleError(error.data);
  const label = [status, google?.status].filter(Boolean).join(" ");
  if (status === undefined) {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    return `Could not reach Gemini (${truncate(cause)})`;
  }
  if (status >= 200 && status < 300) return "Gemini's response could not be read";
  if (status === 429) return `Gemini rate-limited the request (${status})`;
  if (status === 401 || status === 403 || google?.reasons.includes("API_KEY_INVALID")) {
    return `Gemini rejected the API key (${label})`;
  }
  if (status === 404) return `Gemini does not offer the model "${context.modelId}" (${status})`;
  if (status >= 500) return `Gemini had a server error (${label})`;
  return `Gemini rejected the request (${label}: ${truncate(google?.message ?? error.message)})`;
}

function readGoogleError(
  data: unknown,
): { status?: string; message?: string; reasons: string[] } | undefined {
  if (typeof data !== "object" || data === null || !("error" in data)) return undefined;
  const body = (data as { error: { status?: unknown; message?: unknown; details?: unknown } }).error;
  const details = Array.isArray(body.details) ? body.details : [];
  return {
    status: typeof body.status === "string" ? body.status : undefined,
    message: typeof body.message === "string" ? body.message : undefined,
    reasons: details.flatMap((detail: unknown) =>
      typeof detail === "object" &&
      detail !== null &&
      typeof (detail as { reason?: unknown }).reason === "string"
        ? [(detail as { reason: string }).reason]
        : [],
    ),
  };
}

function isTimeout(error: unknown): boolean {
  return (
    (error instanceof Error || (typeof DOMException === "function" && error instanceof DOMException)) &&
    error.name === "TimeoutError"
  );
}

function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return seconds >= 1 ? `${Number(seconds.toFixed(1))} s` : `${milliseconds} ms`;
}

function truncate(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length <= MAX_DETAIL_CHARS ? oneLine : `${oneLine.slice(0, MAX_DETAIL_CHARS - 1)}…`;
}
