import { describe, expect, it } from "vitest";
import { describeUpload } from "./describe-upload";
import type { UploadSnapshot } from "./upload-file";

const snapshot = (overrides: Partial<UploadSnapshot>): UploadSnapshot => ({
  phase: "done",
  videoId: "vid_1",
  sentInParts: true,
  resumedParts: 0,
  failure: null,
  loadedBytes: 6,
  totalBytes: 6,
  fraction: 1,
  bytesPerSecond: 0,
  secondsLeft: null,
  ...overrides,
});

describe("describeUpload", () => {
  it("shows speed and time left while the bytes go up", () => {
    const uploading = describeUpload(
      snapshot({
        phase: "uploading",
        loadedBytes: 500_000,
        fraction: 0.5,
        bytesPerSecond: 600_000,
        secondsLeft: 1,
      }),
      1_000_000,
      undefined,
    );
    expect(uploading).toEqual({
      status: "50% · 500 KB of 1.0 MB · 600 KB/s · 1 s left",
      tone: "brand",
      problem: null,
    });
  });

  it("says the file is being checked, not that all went well, until the library knows", () => {
    for (const video of [undefined, { status: "UPLOADED" as const, failureReason: null }]) {
      const done = describeUpload(snapshot({}), 6, video);
      expect(done.status).toBe("Uploaded 6 B. Truss is checking that it can read the file…");
      expect(done.tone).toBe("brand");
    }
  });

  it("turns to a failure, with the library's reason, when the check turned the file down", () => {
    const failed = describeUpload(snapshot({}), 6, {
      status: "FAILED",
      failureReason: "This file is not a video we can read: its data is invalid or corrupt.",
    });
    expect(failed).toEqual({
      status: "Uploaded 6 B, but Truss could not use it.",
      tone: "danger",
      problem: "This file is not a video we can read: its data is invalid or corrupt.",
    });
    expect(describeUpload(snapshot({}), 6, { status: "FAILED", failureReason: null }).problem).toBe(
      "Truss could not read it as a video.",
    );
  });

  it("shows success once the file passed the check", () => {
    expect(describeUpload(snapshot({}), 6, { status: "ANALYZING", failureReason: null })).toMatchObject({
      status: "Uploaded 6 B. Truss is finding its best moments; it continues in the library below.",
      tone: "success",
    });
    expect(describeUpload(snapshot({}), 6, { status: "READY", failureReason: null })).toMatchObject({
      status: "Uploaded 6 B. Its clips are ready in the library below.",
      tone: "success",
    });
  });

  it("keeps saying how many parts a resumed upload skipped", () => {
    const resumed = describeUpload(snapshot({ resumedParts: 3 }), 6, {
      status: "QUEUED",
      failureReason: null,
    });
    expect(resumed.status).toContain("resumed (3 parts were already uploaded)");
  });

  it("offers to retry an upload that stopped, saying why it stopped", () => {
    const failure = { message: "The connection to storage was lost.", canRetry: true };
    const stopped = describeUpload(snapshot({ phase: "failed", loadedBytes: 3, failure }), 6, undefined);
    expect(stopped).toEqual({
      status: "Stopped at 3 B of 6 B. Retry resumes from the parts already uploaded.",
      tone: "danger",
      problem: "The connection to storage was lost.",
    });
  });

  it("says what Retry will send: the missing parts, the whole file sent in one PUT, or nothing left but finishing", () => {
    const failure = { message: "The connection to storage was lost.", canRetry: true };
    const stoppedAt = (overrides: Partial<UploadSnapshot>) =>
      describeUpload(snapshot({ phase: "failed", failure, ...overrides }), 6, undefined).status;
    expect(stoppedAt({ loadedBytes: 3, sentInParts: false })).toBe(
      "Stopped at 3 B of 6 B. Retry sends the file again.",
    );
    expect(stoppedAt({ loadedBytes: 6, sentInParts: false })).toBe(
      "Stopped at 6 B of 6 B. Retry finishes the upload.",
    );
    expect(stoppedAt({ loadedBytes: 6, sentInParts: true })).toBe(
      "Stopped at 6 B of 6 B. Retry finishes the upload.",
    );
  });

  it("says a file sent in one PUT was found stored when it resumed", () => {
    const resumed = describeUpload(snapshot({ sentInParts: false, resumedParts: 1 }), 6, undefined);
    expect(resumed.status).toContain("resumed (the file was already uploaded)");
    expect(resumed.status).not.toContain("parts");
  });

  it("does not speak of resuming a file that was refused, and says what to do instead", () => {
    const failure = { message: "zero.mp4 is empty (0 bytes). Choose another file.", canRetry: false };
    const refused = describeUpload(snapshot({ phase: "failed", loadedBytes: 0, failure }), 0, undefined);
    expect(refused).toEqual({
      status: "Not uploaded.",
      tone: "danger",
      problem: "zero.mp4 is empty (0 bytes). Choose another file.",
    });
  });
});
