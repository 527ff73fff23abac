import { describe, expect, it } from "vitest";
import type { UploadSnapshot } from "./upload-file";
import { videoStanding } from "./video-standing";

type StandingVideo = Parameters<typeof videoStanding>[0];

const video = (changes: Partial<StandingVideo>): StandingVideo => ({
  status: "UPLOADING",
  origin: "upload",
  stage: null,
  progressPercent: 0,
  failureReason: null,
  clipCount: 0,
  ...changes,
});

const uploading = (changes: Partial<UploadSnapshot>): UploadSnapshot => ({
  phase: "uploading",
  videoId: "vid_1",
  sentInParts: false,
  resumedParts: 0,
  failure: null,
  loadedBytes: 420_000,
  totalBytes: 1_000_000,
  fraction: 0.42,
  bytesPerSecond: 600_000,
  secondsLeft: 1,
  ...changes,
});

describe("videoStanding", () => {
  it("reads a URL import still downloading as importing, with its stage, never as an interrupted upload", () => {
    const waiting = videoStanding(video({ origin: "import", stage: "waiting to download" }), undefined);
    expect(waiting).toEqual({
      kind: "importing",
      text: "Importing from a URL · waiting to download",
      percent: null,
    });
    const downloading = videoStanding(
      video({ origin: "import", stage: "downloading (12.0 MB)", progressPercent: 40.4 }),
      undefined,
    );
    expect(downloading).toEqual({
      kind: "importing",
      text: "Importing from a URL · downloading (12.0 MB) · 40%",
      percent: 40.4,
    });
    expect(videoStanding(video({ origin: "import" }), undefined).text).toBe("Importing from a URL…");
  });

  it("gives a failed import's reason", () => {
    const failed = videoStanding(
      video({
        origin: "import",
        status: "FAILED",
        failureReason: "The import failed: The host example.com could not be found.",
      }),
      undefined,
    );
    expect(failed).toEqual({
      kind: "failed",
      text: "The import failed: The host example.com could not be found.",
      percent: null,
    });
  });

  it("shows the live progress of an upload this tab sends, as the upload panel does", () => {
    const standing = videoStanding(video({}), { snapshot: uploading({}), fileSize: 1_000_000 });
    expect(standing).toEqual({
      kind: "uploading",
      text: "42% · 420 KB of 1.0 MB · 600 KB/s · 1 s left",
      percent: 42,
    });
  });

  it("calls an upload no page of this tab sends interrupted, and says how to resume it", () => {
    expect(videoStanding(video({}), undefined)).toEqual({
      kind: "interrupted",
      text: "Upload interrupted. Choose the same file again to resume where it stopped.",
      percent: null,
    });
  });

  it("gives processing its stage and percentage, and a ready video its clips", () => {
    const analyzing = video({ status: "ANALYZING", stage: "finding moments", progressPercent: 55 });
    expect(videoStanding(analyzing, undefined)).toEqual({
      kind: "processing",
      text: "finding moments · 55%",
      percent: 55,
    });
    expect(videoStanding(video({ status: "QUEUED" }), undefined).text).toBe("queued · 0%");
    expect(videoStanding(video({ status: "READY", clipCount: 3 }), undefined)).toEqual({
      kind: "ready",
      text: "3 clips",
      percent: null,
    });
  });
});
