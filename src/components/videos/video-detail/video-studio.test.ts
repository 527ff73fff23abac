import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { readyClipDetail } from "@/components/clips/testing/clip-detail-fixture";
import { VideoStudio } from "./video-studio";

// Rendered outside a Next.js app: the captions panel's router is only used on upload.
vi.mock("next/navigation", () => ({ useRouter: () => ({ refresh: () => {} }) }));

function renderStudio(clips: ReturnType<typeof readyClipDetail>[]): string {
  return renderToStaticMarkup(
    createElement(VideoStudio, {
      videoId: "video_01JZ8Q000000000000000TEST",
      captions: null,
      durationSeconds: 120,
      sourceUrl: null,
      interestCurve: null,
      chapters: [],
      youtubeChapterText: null,
      clips,
      whyNoClips: "Nothing stood out.",
    }),
  );
}

describe("VideoStudio", () => {
  it("numbers the clips by their place, best first, on the cards and the timeline alike", () => {
    // As the server orders them (bestFirst): a trimmed clip scored again above the analysis'
    // first, and kept at rank 3 through a request for other clips.
    const markup = renderStudio([
      readyClipDetail({
        clipId: "clip_a",
        rank: 3,
        score: 74,
        edited: true,
        startSeconds: 80,
        endSeconds: 95,
      }),
      readyClipDetail({ clipId: "clip_b", rank: 1, score: 66, startSeconds: 10, endSeconds: 30 }),
    ]);
    const badges = [...markup.matchAll(/>#(\d+)</g)].map((match) => match[1]);
    expect(badges).toEqual(["1", "2"]);
    const markers = [...markup.matchAll(/aria-label="Clip (\d+), score (\d+)/g)].map((match) => [
      match[1],
      match[2],
    ]);
    expect(markers).toEqual([
      ["1", "74"],
      ["2", "66"],
    ]);
  });

  it("says why there are no clips, as the page was told", () => {
    const markup = renderStudio([]);
    expect(markup).toContain("No clips from this video");
    expect(markup).toContain("Nothing stood out.");
  });
});
