import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ClipDetail } from "@/server/clips/get-clip";
import { ClipCard } from "./clip-card";
import { ClipPlayerDialog } from "./clip-player-dialog";

/**
 * Download links outlive the signed URLs a page loads with (10–15 minutes), so they point at the
 * route that signs one when clicked, never at the loaded clip's `media.downloadUrl`.
 */
const PAGE_LOAD_DOWNLOAD_URL =
  "http://localhost:8701/truss-media/clips/r0.mp4?response-content-disposition=attachment&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900";

const clip: ClipDetail = {
  clipId: "clip_01JZ8Q0000000000000000TEST",
  videoId: "video_01JZ8Q000000000000000TEST",
  videoTitle: "talk.mp4",
  rank: 1,
  title: "Wait for it",
  hookLine: null,
  score: 81,
  subscores: { hook: 81, audioEnergy: 70, visualDynamics: 20, speech: 50, chat: null },
  reasons: [],
  startSeconds: 10,
  endSeconds: 30,
  durationSeconds: 20,
  revision: 0,
  trimmed: false,
  layout: "auto",
  status: "READY",
  renderFailureReason: null,
  canRenderAgain: false,
  rendered: {
    revision: 0,
    startSeconds: 10,
    endSeconds: 30,
    durationSeconds: 20,
    layout: "crop",
    thumbnailUrl: "http://localhost:8701/truss-media/clips/r0.jpg?X-Amz-Date=20260101T000000Z",
    previewUrl: "http://localhost:8701/truss-media/clips/r0.webp?X-Amz-Date=20260101T000000Z",
    previewType: "image/webp",
    urlsExpireAt: "2026-01-01T00:15:00.000Z",
  },
  version: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  platformCopy: null,
  source: { durationSeconds: 120 },
  editLimits: { minSeconds: 3, maxSeconds: 180 },
  media: {
    videoUrl: "http://localhost:8701/truss-media/clips/r0.mp4?X-Amz-Date=20260101T000000Z&X-Amz-Expires=900",
    downloadUrl: PAGE_LOAD_DOWNLOAD_URL,
    expiresAt: "2026-01-01T00:15:00.000Z",
  },
};

const FRESH_DOWNLOAD_HREF = `/api/clips/${clip.clipId}/download`;

function downloadHrefs(markup: string): string[] {
  return [...markup.matchAll(/<a [^>]*href="([^"]*)"[^>]*download=""/g)].map((match) => match[1]!);
}

describe("download links", () => {
  it("on a clip card, point at the route that signs a fresh URL", () => {
    const markup = renderToStaticMarkup(createElement(ClipCard, { initialClip: clip }));
    expect(downloadHrefs(markup)).toEqual([FRESH_DOWNLOAD_HREF]);
    expect(markup).not.toContain(PAGE_LOAD_DOWNLOAD_URL.replaceAll("&", "&amp;"));
  });

  it("in the player dialog, point at the route that signs a fresh URL", () => {
    const markup = renderToStaticMarkup(
      createElement(ClipPlayerDialog, {
        open: true,
        onClose: () => {},
        title: clip.title,
        clipId: clip.clipId,
        videoUrl: clip.media!.videoUrl,
      }),
    );
    expect(downloadHrefs(markup)).toEqual([FRESH_DOWNLOAD_HREF]);
  });

  it("are left out before the first render", () => {
    const markup = renderToStaticMarkup(
      createElement(ClipCard, { initialClip: { ...clip, status: "PENDING", rendered: null, media: null } }),
    );
    expect(downloadHrefs(markup)).toEqual([]);
  });
});
