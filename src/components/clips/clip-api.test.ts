import { afterEach, describe, expect, it, vi } from "vitest";
import { SIGNED_OUT_MESSAGE } from "@/components/api/page-error-message";
import type { ClipPictureUrls } from "@/server/clips/get-clip-picture-urls";
import { fetchClip, fetchClipPictureUrl, fetchClipsPage } from "./clip-api";

const CLIP_ID = "clip_01JZ8Q0000000000000000TEST";
const FRESH: ClipPictureUrls = {
  thumbnailUrl: "http://localhost:8701/truss-media/clips/r1.jpg?X-Amz-Date=20260101T003012Z",
  previewUrl: "http://localhost:8701/truss-media/clips/r1.preview.webp?X-Amz-Date=20260101T003012Z",
  previewType: "image/webp",
  expiresAt: "2026-01-01T00:45:12.000Z",
};

/** GET /api/clips/{id}/pictures answers with these. */
function servePictures(changes: Partial<ClipPictureUrls> = {}) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    Response.json({ pictures: { ...FRESH, ...changes } }),
  );
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("fetchClipPictureUrl", () => {
  it("asks the pictures route for URLs signed now, bypassing the HTTP cache", async () => {
    const fetchMock = servePictures();
    expect(await fetchClipPictureUrl(CLIP_ID, "thumbnail")).toBe(FRESH.thumbnailUrl);
    expect(await fetchClipPictureUrl(CLIP_ID, { previewType: "image/webp" })).toBe(FRESH.previewUrl);
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/clips/${CLIP_ID}/pictures`,
      expect.objectContaining({ cache: "no-store" }),
    );
  });

  it("has no URL for a preview whose newest render changed format", async () => {
    // An <img> cannot show the MP4 preview a newer render made instead of the WebP it had.
    servePictures({ previewType: "video/mp4" });
    expect(await fetchClipPictureUrl(CLIP_ID, { previewType: "image/webp" })).toBeNull();
    expect(await fetchClipPictureUrl(CLIP_ID, { previewType: "video/mp4" })).toBe(FRESH.previewUrl);
  });

  it("fails with the API's message when there are no pictures to sign", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json({ error: { message: "This clip has not been rendered yet." } }, { status: 409 }),
      ),
    );
    await expect(fetchClipPictureUrl(CLIP_ID, "thumbnail")).rejects.toThrow(
      "This clip has not been rendered yet.",
    );
  });
});

describe("fetchClipsPage", () => {
  it("asks for the page after the cursor in the same order and minimum score, bypassing the HTTP cache", async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
      Response.json({ clips: [], nextCursor: "next.sig" }),
    );
    vi.stubGlobal("fetch", fetchMock);
    expect(await fetchClipsPage({ sort: "score", minScore: 60, cursor: "abc.def" })).toEqual({
      clips: [],
      nextCursor: "next.sig",
    });
    expect(fetchMock).toHaveBeenCalledWith(
      "/api/clips?sort=score&cursor=abc.def&minScore=60",
      expect.objectContaining({ cache: "no-store" }),
    );
    await fetchClipsPage({ sort: "newest", minScore: undefined, cursor: "abc.def" });
    expect(fetchMock).toHaveBeenLastCalledWith("/api/clips?sort=newest&cursor=abc.def", expect.anything());
  });

  it("fails with the API's message (a cursor from another listing)", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json(
          { error: { message: "The cursor is not valid for this list. Start again from the first page." } },
          { status: 400 },
        ),
      ),
    );
    await expect(fetchClipsPage({ sort: "newest", minScore: undefined, cursor: "x.y" })).rejects.toThrow(
      "The cursor is not valid for this list.",
    );
  });
});

describe("clip API errors", () => {
  it("says the page's session ended when the API answers 401", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        Response.json(
          { error: { message: "Sign in, or send a personal API token as `Authorization: Bearer <token>`." } },
          { status: 401 },
        ),
      ),
    );
    await expect(fetchClip(CLIP_ID)).rejects.toThrow(SIGNED_OUT_MESSAGE);
  });
});
