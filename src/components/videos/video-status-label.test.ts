import { describe, expect, it } from "vitest";
import { videoStatusLabel } from "./video-status-label";

describe("videoStatusLabel", () => {
  it("says Uploading while a page sends the bytes, and Interrupted once none does", () => {
    expect(videoStatusLabel({ status: "UPLOADING", origin: "upload" })).toEqual({
      text: "Uploading",
      tone: "neutral",
    });
    expect(videoStatusLabel({ status: "UPLOADING", origin: "upload" }, { interrupted: true })).toEqual({
      text: "Interrupted",
      tone: "warning",
    });
  });

  it("says Importing while the worker downloads a URL import: no page sends it, nothing was interrupted", () => {
    expect(videoStatusLabel({ status: "UPLOADING", origin: "import" }, { interrupted: true })).toEqual({
      text: "Importing",
      tone: "brand",
    });
  });

  it("keeps the server's status once the bytes are in", () => {
    expect(videoStatusLabel({ status: "READY", origin: "upload" }, { interrupted: true })).toEqual({
      text: "Ready",
      tone: "success",
    });
    expect(videoStatusLabel({ status: "FAILED", origin: "import" })).toEqual({
      text: "Failed",
      tone: "danger",
    });
  });
});
