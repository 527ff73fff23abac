import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as downloadClipRoute } from "@/app/api/clips/[clipId]/download/route";
import { GET as clipPicturesRoute } from "@/app/api/clips/[clipId]/pictures/route";
import { GET as videoSourceRoute } from "@/app/api/videos/[videoId]/source/route";
import { GET as videoThumbnailRoute } from "@/app/api/videos/[videoId]/thumbnail/route";
import { type Clip, markClipRendered, upsertClipsForVideo } from "@/db/repos/clip-repo";
import type { Video } from "@/db/repos/video-repo";
import { standInMoments } from "@/db/testing/stand-in-moments";
import { standInRender } from "@/db/testing/stand-in-render";
import { testProbe } from "@/engine/testing/test-probe";
import { createId } from "@/lib/ids";
import { createSignedInCreator } from "@/server/auth/testing/create-signed-in-creator";
import { getRuntime, tableOf } from "@/server/runtime";
import { writeTextObject } from "@/storage/object-io";
import { clipRenderObjectKey, videoThumbnailObjectKey } from "@/storage/object-keys";
import { MEDIA_URL_MIN_VALID_SECONDS, MEDIA_URL_WINDOW_SECONDS } from "@/storage/presign-media-url";
import { recordQueuedVideo, recordVideoReady } from "@/worker/testing/create-queued-test-video";
import { provisionResources } from "../../../dev/provision";
import { toVideoView } from "../videos/to-video-view";
import { getVideoStudio } from "./get-video-studio";

/**
 * A video page left open longer than its signed URLs live: the URLs it loaded with are refused
 * by storage, while its Download links and its player's refresh get URLs signed at that moment,
 * from the owner's session only. Through the real route handlers and the S3 emulator, which
 * enforces X-Amz-Expires.
 */
const runtime = getRuntime();
const table = tableOf(runtime);
const storage = { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName };
const appUrl = runtime.config.appUrl;

const SOURCE_BYTES = "stand-in source video";
const RENDER_BYTES = "stand-in rendered clip";
const THUMBNAIL_BYTES = "stand-in video thumbnail";
/** Longer ago than any page URL lives. */
const PAGE_AGE_MS = (MEDIA_URL_WINDOW_SECONDS + MEDIA_URL_MIN_VALID_SECONDS + 60) * 1000;

const PROBE = testProbe({
  width: 1280,
  height: 720,
  codedWidth: 1280,
  codedHeight: 720,
  bitrateBitsPerSecond: 1_000_000,
  sizeBytes: SOURCE_BYTES.length,
});

let owner: { creatorId: string; cookie: string };
let stranger: { creatorId: string; cookie: string };
let video: Video;
/** A video still being analysed: no thumbnail yet. */
let unanalysed: Video;
let rendered: Clip;
let unrendered: Clip;

const download = (cookie: string | null, clipId: string) =>
  downloadClipRoute(
    new Request(`${appUrl}/api/clips/${clipId}/download`, { headers: cookie ? { cookie } : {} }),
    { params: Promise.resolve({ clipId }) },
  );
const pictures = (cookie: string | null, clipId: string) =>
  clipPicturesRoute(
    new Request(`${appUrl}/api/clips/${clipId}/pictures`, { headers: cookie ? { cookie } : {} }),
    { params: Promise.resolve({ clipId }) },
  );
const source = (cookie: string | null, videoId: string) =>
  videoSourceRoute(
    new Request(`${appUrl}/api/videos/${videoId}/source`, { headers: cookie ? { cookie } : {} }),
    { params: Promise.resolve({ videoId }) },
  );
const thumbnail = (cookie: string | null, videoId: string) =>
  videoThumbnailRoute(
    new Request(`${appUrl}/api/videos/${videoId}/thumbnail`, { headers: cookie ? { cookie } : {} }),
    { params: Promise.resolve({ videoId }) },
  );

/** Runs `load` with the clock turned back, as a page loaded that long ago did. */
async function loadedAgo<T>(ageMs: number, load: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ now: Date.now() - ageMs, toFake: ["Date"] });
  try {
    return await load();
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => {
  vi.useRealTimers();
});

beforeAll(async () => {
  const { clients, config } = runtime;
  await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  owner = await createSignedInCreator({ runtime });
  stranger = await createSignedInCreator({ runtime });
  const { creatorId } = owner;
  const videoId = createId("video");
  video = await recordQueuedVideo({ table, creatorId, videoId, filename: "talk.mp4", probe: PROBE });
  await writeTextObject({ ...storage, key: video.sourceKey, text: SOURCE_BYTES, contentType: "video/mp4" });

  const { clips } = await upsertClipsForVideo({
    table,
    creatorId,
    videoId,
    videoTitle: "talk.mp4",
    moments: standInMoments([80, 40]),
  });
  [rendered, unrendered] = clips as [Clip, Clip];
  const keyOf = (kind: "video" | "thumbnail" | "preview") =>
    clipRenderObjectKey({ creatorId, videoId, clipId: rendered.clipId, revision: 0, kind });
  const keys = { videoKey: keyOf("video"), thumbnailKey: keyOf("thumbnail"), previewKey: keyOf("preview") };
  for (const key of Object.values(keys)) {
    await writeTextObject({ ...storage, key, text: RENDER_BYTES, contentType: "video/mp4" });
  }
  rendered = (await markClipRendered({
    table,
    creatorId,
    clipId: rendered.clipId,
    render: standInRender(keys, { startSeconds: 5, endSeconds: 25 }),
  }))!.clip;
  const thumbnailKey = videoThumbnailObjectKey(creatorId, videoId);
  await writeTextObject({ ...storage, key: thumbnailKey, text: THUMBNAIL_BYTES, contentType: "image/jpeg" });
  video = await recordVideoReady({ table, video, set: { thumbnailKey } });
  unanalysed = await recordQueuedVideo({
    table,
    creatorId,
    videoId: createId("video"),
    filename: "later.mp4",
    probe: PROBE,
  });
});

describe("a video page open longer than its signed URLs live", () => {
  it("downloads a clip through a freshly signed URL after the page's own has expired", async () => {
    const page = await loadedAgo(PAGE_AGE_MS, () =>
      getVideoStudio({ runtime, creatorId: owner.creatorId, videoId: video.videoId }),
    );
    const pageClip = page.clips.find((clip) => clip.clipId === rendered.clipId)!;
    // The URL the page was rendered with is refused by now…
    const stale = await fetch(pageClip.media!.downloadUrl);
    expect(stale.status).toBe(403);
    expect(await stale.text()).toMatch(/expired/i);

    // …while the Download link's route answers with one signed now.
    const response = await download(owner.cookie, rendered.clipId);
    expect(response.status).toBe(302);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const location = response.headers.get("location")!;
    expect(location).not.toBe(pageClip.media!.downloadUrl);
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toBe('attachment; filename="talk-clip-1-moment-1.mp4"');
    expect(await file.text()).toBe(RENDER_BYTES);
  });

  it("hands the source player a working URL after the page's own has expired", async () => {
    const page = await loadedAgo(PAGE_AGE_MS, () =>
      getVideoStudio({ runtime, creatorId: owner.creatorId, videoId: video.videoId }),
    );
    expect((await fetch(page.sourceUrl!)).status).toBe(403);

    const response = await source(owner.cookie, video.videoId);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { source: { url: string; expiresAt: string } };
    expect(Date.parse(body.source.expiresAt)).toBeGreaterThan(Date.now() + 10 * 60_000);
    const file = await fetch(body.source.url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(SOURCE_BYTES);
  });

  it("hands a clip's thumbnail and preview working URLs after the page's own have expired", async () => {
    const page = await loadedAgo(PAGE_AGE_MS, () =>
      getVideoStudio({ runtime, creatorId: owner.creatorId, videoId: video.videoId }),
    );
    const pageRender = page.clips.find((clip) => clip.clipId === rendered.clipId)!.rendered!;
    expect((await fetch(pageRender.thumbnailUrl)).status).toBe(403);
    expect((await fetch(pageRender.previewUrl)).status).toBe(403);

    const response = await pictures(owner.cookie, rendered.clipId);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as {
      pictures: { thumbnailUrl: string; previewUrl: string; previewType: string; expiresAt: string };
    };
    expect(body.pictures.previewType).toBe(pageRender.previewType);
    expect(Date.parse(body.pictures.expiresAt)).toBeGreaterThan(Date.now() + 10 * 60_000);
    for (const url of [body.pictures.thumbnailUrl, body.pictures.previewUrl]) {
      const file = await fetch(url);
      expect(file.status).toBe(200);
      expect(await file.text()).toBe(RENDER_BYTES);
    }
  });

  it("gives a polling video list one thumbnail URL per signing window, so pictures are not fetched again", async () => {
    const windowMs = MEDIA_URL_WINDOW_SECONDS * 1000;
    const windowStartMs = Math.floor(Date.now() / windowMs) * windowMs;
    const listedAt = async (atMs: number) => {
      vi.useFakeTimers({ now: atMs, toFake: ["Date"] });
      try {
        return (await toVideoView(runtime, video)).thumbnailUrl;
      } finally {
        vi.useRealTimers();
      }
    };
    const first = await listedAt(windowStartMs + 5_000);
    expect(await listedAt(windowStartMs + windowMs - 5_000)).toBe(first);
    expect(await listedAt(windowStartMs + windowMs + 5_000)).not.toBe(first);
    expect((await fetch(first!)).status).toBe(200);
  });

  it("hands a video list a working thumbnail URL after the page's own has expired", async () => {
    const listed = await loadedAgo(PAGE_AGE_MS, () => toVideoView(runtime, video));
    expect((await fetch(listed.thumbnailUrl!)).status).toBe(403);

    const response = await thumbnail(owner.cookie, video.videoId);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { thumbnail: { url: string; expiresAt: string } };
    expect(Date.parse(body.thumbnail.expiresAt)).toBeGreaterThan(Date.now() + 10 * 60_000);
    const file = await fetch(body.thumbnail.url);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(THUMBNAIL_BYTES);

    // A video without a thumbnail yet has none to refresh: the list keeps its placeholder.
    const none = await thumbnail(owner.cookie, unanalysed.videoId);
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ thumbnail: null });
  });

  it("signs fresh URLs for the owner only", async () => {
    expect((await download(null, rendered.clipId)).status).toBe(401);
    expect((await source(null, video.videoId)).status).toBe(401);
    expect((await download(stranger.cookie, rendered.clipId)).status).toBe(404);
    expect((await source(stranger.cookie, video.videoId)).status).toBe(404);
    expect((await download(owner.cookie, "../etc")).status).toBe(404);
    expect((await source(owner.cookie, "video_nope")).status).toBe(404);
    expect((await pictures(null, rendered.clipId)).status).toBe(401);
    expect((await pictures(stranger.cookie, rendered.clipId)).status).toBe(404);
    expect((await pictures(owner.cookie, "../etc")).status).toBe(404);
    expect((await pictures(owner.cookie, unrendered.clipId)).status).toBe(409);
    expect((await thumbnail(null, video.videoId)).status).toBe(401);
    expect((await thumbnail(stranger.cookie, video.videoId)).status).toBe(404);
    expect((await thumbnail(owner.cookie, "video_nope")).status).toBe(404);
    // Before its first render a clip has nothing to download.
    const early = await download(owner.cookie, unrendered.clipId);
    expect(early.status).toBe(409);
    expect((await early.json()).error.message).toBe("This clip has not been rendered yet.");
  });
});
