import { describe, expect, it } from "vitest";
import { declaredContentType, isRunning, type UploadPhase } from "./upload-file";

describe("declaredContentType", () => {
  it("keeps the browser's type when it names a video we take", () => {
    expect(declaredContentType({ name: "clip.mp4", type: "video/mp4" })).toBe("video/mp4");
    expect(declaredContentType({ name: "clip.webm", type: "video/webm;codecs=vp9" })).toBe(
      "video/webm;codecs=vp9",
    );
    // A mislabelled file stays mislabelled: the server says so.
    expect(declaredContentType({ name: "clip.mp4", type: "video/webm" })).toBe("video/webm");
  });

  it("takes the extension's type when the operating system gives none or a wrong one", () => {
    expect(declaredContentType({ name: "stream.mkv", type: "" })).toBe("video/x-matroska");
    expect(declaredContentType({ name: "capture.ts", type: "text/vnd.trolltech.linguist" })).toBe(
      "video/mp2t",
    );
    expect(declaredContentType({ name: "capture.ts", type: "video/vnd.dlna.mpeg-tts" })).toBe(
      "video/vnd.dlna.mpeg-tts",
    );
  });

  it("passes anything else on as it is, for the server to refuse", () => {
    expect(declaredContentType({ name: "notes.txt", type: "text/plain" })).toBe("text/plain");
    expect(declaredContentType({ name: "noextension", type: "" })).toBe("application/octet-stream");
  });
});

describe("isRunning", () => {
  it("is true from creating the video to completing it, and false once it ended either way", () => {
    const phases: UploadPhase[] = ["preparing", "uploading", "completing", "done", "failed", "cancelled"];
    expect(phases.filter(isRunning)).toEqual(["preparing", "uploading", "completing"]);
  });
});
