import { describe, expect, it } from "vitest";
import { videoStatusLabel } from "./video-status-label";

describe("videoStatusLabel", () => {
  it("says Uploading while a page sends the bytes, and Interrupted once none does", () => {
    expect(videoStatusLabel("UPLOADING")).toEqual({ text: "Uploading", tone: "neutral" });
    expect(videoStatusLabel("UPLOADING", { interrupted: true })).toEqual({
      text: "Interrupted",
      tone: "warning",
    });
  });

  it("keeps the server's status once the bytes are in", () => {
    expect(videoStatusLabel("READY", { interrupted: true })).toEqual({ text: "Ready", tone: "success" });
    expect(videoStatusLabel("FAILED")).toEqual({ text: "Failed", tone: "danger" });
  });
});
