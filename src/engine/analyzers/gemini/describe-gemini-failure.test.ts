import { APICallError, RetryError } from "ai";
import { describe, expect, it } from "vitest";
import { MediaCommandError } from "@/media/run-ffmpeg";
import { describeGeminiFailure, GeminiVideoPreparationError } from "./describe-gemini-failure";

const context = { timeoutMs: 600_000, modelId: "gemini-flash-latest" };

function apiError(statusCode: number | undefined, data?: unknown, cause?: Error) {
  return new APICallError({
    message: "failed",
    url: "https://generativelanguage.googleapis.com/v1beta/models/x:generateContent",
    requestBodyValues: {},
    statusCode,
    data,
    cause,
  });
}

describe("describeGeminiFailure", () => {
  it("names the HTTP outcome", () => {
    expect(describeGeminiFailure(apiError(429), context)).toBe(
      "Gemini rate-limited the request (429); local analysis used.",
    );
    expect(
      describeGeminiFailure(
        apiError(400, {
          error: {
            code: 400,
            status: "FAILED_PRECONDITION",
            message: "User location is not supported for the API use.",
          },
        }),
        context,
      ),
    ).toBe(
      "Gemini rejected the request (400 FAILED_PRECONDITION: User location is not supported for the API use.); local analysis used.",
    );
    expect(
      describeGeminiFailure(
        apiError(403, { error: { code: 403, status: "PERMISSION_DENIED", message: "x" } }),
        context,
      ),
    ).toBe("Gemini rejected the API key (403 PERMISSION_DENIED); local analysis used.");
    expect(describeGeminiFailure(apiError(504), context)).toBe(
      "Gemini had a server error (504); local analysis used.",
    );
  });

  it("describes a network failure by its cause", () => {
    const error = apiError(
      undefined,
      undefined,
      new Error("getaddrinfo ENOTFOUND generativelanguage.googleapis.com"),
    );
    expect(describeGeminiFailure(error, context)).toBe(
      "Could not reach Gemini (getaddrinfo ENOTFOUND generativelanguage.googleapis.com); local analysis used.",
    );
  });

  it("reports the last error of exhausted retries, and a non-retryable one plainly", () => {
    const exhausted = new RetryError({
      message: "Failed after 3 attempts",
      reason: "maxRetriesExceeded",
      errors: [apiError(503), apiError(503), apiError(500)],
    });
    expect(describeGeminiFailure(exhausted, context)).toBe(
      "Gemini had a server error (500) on all 3 attempts; local analysis used.",
    );
    const notRetryable = new RetryError({
      message: "Failed after 2 attempts with non-retryable error",
      reason: "errorNotRetryable",
      errors: [apiError(503), apiError(429)],
    });
    expect(describeGeminiFailure(notRetryable, context)).toBe(
      "Gemini rate-limited the request (429); local analysis used.",
    );
  });

  it("describes timeouts in seconds", () => {
    const timeout = new DOMException("Total timeout of 600000ms exceeded", "TimeoutError");
    expect(describeGeminiFailure(timeout, context)).toBe(
      "Gemini did not answer within 600 s; local analysis used.",
    );
  });

  it("describes video preparation and unexpected failures", () => {
    expect(describeGeminiFailure(new GeminiVideoPreparationError("The video is too long"), context)).toBe(
      "The video is too long; local analysis used.",
    );
    const ffmpeg = new MediaCommandError("ffmpeg exited with code 1: moov atom not found", {
      binaryPath: "ffmpeg",
      args: [],
      exitCode: 1,
      stderrTail: "",
      timedOut: false,
    });
    expect(describeGeminiFailure(ffmpeg, context)).toBe(
      "Could not prepare the video for Gemini (ffmpeg exited with code 1: moov atom not found); local analysis used.",
    );
    expect(describeGeminiFailure(new Error("x".repeat(500)), context)).toMatch(
      /^Gemini analysis failed \(x{159}…\); local analysis used\.$/,
    );
  });
});
