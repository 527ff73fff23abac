import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ClipCard } from "./clip-card";
import { ClipPlayerDialog } from "./clip-player-dialog";
import { readyClipDetail } from "./testing/clip-detail-fixture";

/**
 * Download links outlive the signed URLs a page loads with (10–15 minutes), so they point at the
 * route that signs one when clicked, never at the loaded clip's `media.downloadUrl`.
 */
const clip = readyClipDetail();
const PAGE_LOAD_DOWNLOAD_URL = clip.media!.downloadUrl;

const FRESH_DOWNLOAD_HREF = `/api/clips/${clip.clipId}/download`;

function downloadHrefs(markup: string): string[] {
  return [...markup.matchAll(/<a [^>]*href="([^"]*)"[^>]*download=""/g)].map((match) => match[1]!);
}

describe("download links", () => {
  it("on a clip card, point at the route that signs a fresh URL", () => {
    const markup = renderToStaticMarkup(createElement(ClipCard, { initialClip: clip, place: 1 }));
    expect(downloadHrefs(markup)).toEqual([FRESH_DOWNLOAD_HREF]);
    expect(markup).not.toContain(PAGE_LOAD_DOWNLOAD_URL.replaceAll("&", "&amp;"));
  });

  it("in the player dialog, point at the route that signs a fresh URL", () => {
    const markup = renderToStaticMarkup(
      createElement(ClipPlayerDialog, { open: true, onClose: () => {}, clip }),
    );
    expect(downloadHrefs(markup)).toEqual([FRESH_DOWNLOAD_HREF]);
    expect(markup).toMatch(/download="">Download MP4<\/a>/);
  });

  it("in the player dialog (Clips page, Top clips, a card) of a clip whose new range still renders, say they save the previous version, and which", () => {
    // Edited from 0:10–0:30 to 0:14–0:29, as the clip API gives it while the new range renders.
    const edited = readyClipDetail({
      startSeconds: 14,
      endSeconds: 29,
      durationSeconds: 15,
      revision: 1,
      status: "RENDERING",
    });
    const markup = renderToStaticMarkup(
      createElement(ClipPlayerDialog, { open: true, onClose: () => {}, clip: edited }),
    );
    expect(downloadHrefs(markup)).toEqual([FRESH_DOWNLOAD_HREF]);
    expect(markup).toMatch(/download="">Download previous version<\/a>/);
    expect(markup).not.toContain("Download MP4");
    expect(markup).toContain("The download is the previous version (0:10–0:30, 20 s) until the new one");
  });

  it("on a clip card whose new range still renders, say they save the previous version, and which", () => {
    // Edited from 0:10–0:30 to 0:14–0:29: the render of 0:10–0:30 stays until the new one is ready.
    const edited = { ...clip, startSeconds: 14, endSeconds: 29, durationSeconds: 15, revision: 1 };
    for (const status of ["PENDING", "RENDERING", "FAILED"] as const) {
      const markup = renderToStaticMarkup(
        createElement(ClipCard, { initialClip: { ...edited, status }, place: 1 }),
      );
      expect(downloadHrefs(markup)).toEqual([FRESH_DOWNLOAD_HREF]);
      expect(markup).toMatch(/download="">.*Download previous version<\/a>/);
      expect(markup).toContain("The download is the previous version (0:10–0:30, 20 s) until the new one");
    }
    const rendered = renderToStaticMarkup(
      createElement(ClipCard, {
        initialClip: { ...edited, rendered: { ...clip.rendered!, revision: 1, startSeconds: 14 } },
        place: 1,
      }),
    );
    expect(rendered).not.toContain("previous version");
  });

  it("are left out before the first render", () => {
    const markup = renderToStaticMarkup(
      createElement(ClipCard, {
        initialClip: { ...clip, status: "PENDING", rendered: null, media: null },
        place: 1,
      }),
    );
    expect(downloadHrefs(markup)).toEqual([]);
  });
});
