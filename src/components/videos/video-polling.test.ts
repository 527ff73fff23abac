import { describe, expect, it } from "vitest";
import type { VideoStatus } from "@/lib/video-status";
import type { VideoView } from "./video-api";
import {
  libraryNeedsPolling,
  PROCESSING_POLL_MS,
  refreshIntervalFor,
  UPLOADING_POLL_MS,
} from "./video-polling";

const upload = (id: string, status: VideoStatus) => ({ id, status, origin: "upload" as const });
const urlImport = (id: string, status: VideoStatus) => ({ id, status, origin: "import" as const });

describe("libraryNeedsPolling", () => {
  const none = new Set<string>();

  it("polls while a video is processing, or while an upload runs in this tab", () => {
    expect(
      libraryNeedsPolling({
        videos: [upload("a", "ANALYZING")],
        uploadsActive: false,
        uploadingHere: none,
      }),
    ).toBe(true);
    expect(libraryNeedsPolling({ videos: [], uploadsActive: true, uploadingHere: none })).toBe(true);
  });

  it("does not poll for a video left UPLOADING by another tab (or an interrupted upload)", () => {
    const videos = [upload("a", "UPLOADING"), upload("b", "READY")];
    expect(libraryNeedsPolling({ videos, uploadsActive: false, uploadingHere: none })).toBe(false);
  });

  it("polls while a URL import downloads: the worker moves it on, no page of this tab", () => {
    const videos = [urlImport("a", "UPLOADING"), upload("b", "READY")];
    expect(libraryNeedsPolling({ videos, uploadsActive: false, uploadingHere: none })).toBe(true);
  });

  it("polls for an UPLOADING video whose bytes this tab sends (its upload just finished, say)", () => {
    const videos = [upload("a", "UPLOADING")];
    expect(libraryNeedsPolling({ videos, uploadsActive: false, uploadingHere: new Set(["a"]) })).toBe(true);
  });

  it("stops once every video is ready or failed", () => {
    const videos = [upload("a", "READY"), upload("b", "FAILED")];
    expect(libraryNeedsPolling({ videos, uploadsActive: false, uploadingHere: none })).toBe(false);
  });
});

describe("refreshIntervalFor", () => {
  const none = new Set<string>();
  const videos = (...statuses: VideoStatus[]): Pick<VideoView, "id" | "status" | "origin">[] =>
    statuses.map((status, index) => upload(`v${index}`, status));

  it("refreshes often while a video is processing, even beside one waiting for its upload", () => {
    expect(refreshIntervalFor(videos("QUEUED"), none)).toBe(PROCESSING_POLL_MS);
    expect(refreshIntervalFor(videos("UPLOADED"), none)).toBe(PROCESSING_POLL_MS);
    expect(refreshIntervalFor(videos("UPLOADING", "RENDERING", "READY"), none)).toBe(PROCESSING_POLL_MS);
  });

  it("refreshes seldom when videos only wait for bytes no upload in this tab sends", () => {
    expect(refreshIntervalFor(videos("UPLOADING"), none)).toBe(UPLOADING_POLL_MS);
    expect(refreshIntervalFor(videos("UPLOADING", "READY", "FAILED"), none)).toBe(UPLOADING_POLL_MS);
    expect(UPLOADING_POLL_MS).toBeGreaterThanOrEqual(30_000);
  });

  it("refreshes often for a video this tab is uploading: it moves on once the bytes are in", () => {
    expect(refreshIntervalFor(videos("READY", "UPLOADING"), new Set(["v1"]))).toBe(PROCESSING_POLL_MS);
  });

  it("refreshes often while a URL import downloads, whichever tab started it", () => {
    expect(refreshIntervalFor([urlImport("v0", "UPLOADING")], none)).toBe(PROCESSING_POLL_MS);
  });

  it("does not refresh once all are done", () => {
    expect(refreshIntervalFor(videos("READY", "FAILED"), none)).toBeNull();
    expect(refreshIntervalFor([], none)).toBeNull();
  });
});
