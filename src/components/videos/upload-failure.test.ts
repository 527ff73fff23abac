import { describe, expect, it } from "vitest";
import { PutFailedError } from "./put-blob";
import { FileRefusedError, refuseChosenFile, toUploadFailure } from "./upload-failure";
import { ApiError } from "./video-api";

describe("refuseChosenFile", () => {
  it("refuses an empty file, naming it", () => {
    expect(refuseChosenFile({ name: "zero.mp4", size: 0 })?.message).toBe("zero.mp4 is empty (0 bytes).");
  });

  it("lets any other file through, for the server to check", () => {
    expect(refuseChosenFile({ name: "one.mp4", size: 1 })).toBeNull();
  });
});

describe("toUploadFailure", () => {
  it("does not offer a retry when the server refused the file itself, and says what to do", () => {
    const refusals = [
      new ApiError(413, "payload_too_large", "This file is 12 GB, over the 10 GB limit."),
      new ApiError(415, "unsupported_media_type", 'Files of type "text/plain" are not accepted.'),
      new ApiError(422, "validation_failed", "Invalid input: filename: Too big"),
      new FileRefusedError("zero.mp4 is empty (0 bytes)."),
    ];
    expect(refusals.map(toUploadFailure)).toEqual([
      { message: "This file is 12 GB, over the 10 GB limit. Choose another file.", canRetry: false },
      { message: 'Files of type "text/plain" are not accepted. Choose another file.', canRetry: false },
      { message: "Invalid input: filename: Too big. Choose another file.", canRetry: false },
      { message: "zero.mp4 is empty (0 bytes). Choose another file.", canRetry: false },
    ]);
  });

  it("offers a retry for what may pass next time: network, 5xx, 429, storage, anything else", () => {
    const passing = [
      new ApiError(0, "network", "The connection to Truss was lost."),
      new ApiError(503, "unavailable", "Storage does not answer."),
      new ApiError(429, "rate_limited", "Too many requests."),
      new PutFailedError(0, "The connection to storage was lost."),
      new Error("No URL for part 3"),
    ];
    for (const error of passing)
      expect(toUploadFailure(error)).toEqual({ message: error.message, canRetry: true });
  });

  it("says the creator was signed out mid-upload, and how to finish it, instead of the API's words for scripts", () => {
    const failure = toUploadFailure(
      new ApiError(
        401,
        "unauthorized",
        "Sign in, or send a personal API token as `Authorization: Bearer <token>`.",
      ),
    );
    expect(failure).toEqual({
      message:
        "You were signed out before the upload finished. Sign in again in another tab (this one keeps the upload), then choose Retry.",
      canRetry: true,
    });
  });
});
