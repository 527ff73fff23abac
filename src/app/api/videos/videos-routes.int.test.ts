import { describe, expect, it } from "vitest";
import {
  DELETE as deleteCaptionsRoute,
  PUT as putCaptionsRoute,
} from "@/app/api/videos/[videoId]/captions/route";
import {
  DELETE as deleteVideoRoute,
  GET as getVideoRoute,
  PATCH as patchVideoRoute,
} from "@/app/api/videos/[videoId]/route";
import { GET as resumeRoute } from "@/app/api/videos/[videoId]/upload/route";
import { POST as completeRoute } from "@/app/api/videos/[videoId]/upload-complete/route";
import { PUT as recordPartRoute } from "@/app/api/videos/[videoId]/upload-parts/[partNumber]/route";
import { POST as signPartsRoute } from "@/app/api/videos/[videoId]/upload-parts/route";
import { POST as importRoute } from "@/app/api/videos/import/route";
import { POST as createRoute, GET as listRoute } from "@/app/api/videos/route";
import { createSignedInCreator } from "@/server/auth/testing/create-signed-in-creator";
import { getRuntime } from "@/server/runtime";

/**
 * /api/videos through the real route handlers and `withCreator`: thin handlers that parse,
 * call one server function and answer with the documented status codes — and no route lets
 * one creator see or touch another creator's video.
 */

const runtime = getRuntime();
const base = `${runtime.config.appUrl}/api/videos`;
const MiB = 1024 * 1024;
const SRT = "1\n00:00:01,000 --> 00:00:02,500\nHello\n\n2\n00:00:03,000 --> 00:00:04,000\nAgain\n";

type Params = Record<string, string>;
const paramsOf = <P extends Params>(params: P) => ({ params: Promise.resolve(params) });

function request(method: string, url: string, cookie: string | null, body?: unknown): Request {
  const headers = new Headers({ origin: runtime.config.appUrl });
  if (cookie) headers.set("cookie", cookie);
  if (body !== undefined) headers.set("content-type", "application/json");
  return new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

async function createUpload(cookie: string, sizeBytes: number) {
  const response = await createRoute(
    request("POST", base, cookie, { filename: "talk.mp4", contentType: "video/mp4", sizeBytes }),
    paramsOf({}) as never,
  );
  expect(response.status).toBe(201);
  return (await response.json()) as { video: { id: string; status: string }; upload: { kind: string } };
}

describe("/api/videos routes", () => {
  it("need a signed-in creator", async () => {
    const response = await listRoute(request("GET", base, null), paramsOf({}) as never);
    expect(response.status).toBe(401);
    expect(await errorCode(response)).toBe("unauthorized");
  });

  it("create answers 201 with upload instructions, and refuses bad input with 422, 415 and 413", async () => {
    const { cookie } = await createSignedInCreator({ runtime });
    const created = await createUpload(cookie, 100 * MiB);
    expect(created.video.status).toBe("UPLOADING");
    expect(created.upload.kind).toBe("multipart");

    const post = (body: unknown) => createRoute(request("POST", base, cookie, body), paramsOf({}) as never);
    expect((await post({ filename: "a.mp4" })).status).toBe(422);
    expect((await post({ filename: "a.mp4", contentType: "text/plain", sizeBytes: 10 })).status).toBe(415);
    const tooBig = await post({
      filename: "a.mp4",
      contentType: "video/mp4",
      sizeBytes: runtime.config.uploads.maxBytes + 1,
    });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: { message: string } }).error.message).toBe(
      "This file is 10,000,000,001 bytes; the limit is 10,000,000,000 bytes.",
    );
    const longName = await post({
      filename: `${"x".repeat(300)}.mp4`,
      contentType: "video/mp4",
      sizeBytes: MiB,
    });
    expect(longName.status).toBe(201);
    expect(((await longName.json()) as { video: { filename: string } }).video.filename).toMatch(
      /^x{196}\.mp4$/,
    );
  });

  it("a part number out of range is refused by name", async () => {
    const { cookie } = await createSignedInCreator({ runtime });
    const { video } = await createUpload(cookie, 100 * MiB);
    const response = await recordPartRoute(
      request("PUT", `${base}/${video.id}/upload-parts/0`, cookie, { etag: '"abc"' }),
      paramsOf({ videoId: video.id, partNumber: "0" }),
    );
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /^Invalid input: partNumber: /,
    );
  });

  it("create and import keep the clips asked for, the defaults otherwise, and refuse impossible ones with 422", async () => {
    const { cookie } = await createSignedInCreator({ runtime });
    const file = { filename: "talk.mp4", contentType: "video/mp4", sizeBytes: MiB };
    const post = (body: unknown) => createRoute(request("POST", base, cookie, body), paramsOf({}) as never);
    const asked = await post({ ...file, clipOptions: { count: 10, minSeconds: 30, maxSeconds: 90 } });
    expect(asked.status).toBe(201);
    const { video } = (await asked.json()) as { video: { id: string } };
    const read = await getVideoRoute(
      request("GET", `${base}/${video.id}`, cookie),
      paramsOf({ videoId: video.id }),
    );
    expect(((await read.json()) as { video: { clipOptions: unknown } }).video.clipOptions).toEqual({
      count: 10,
      minSeconds: 30,
      maxSeconds: 90,
    });
    const byDefault = (await (await post(file)).json()) as { video: { clipOptions: unknown } };
    expect(byDefault.video.clipOptions).toEqual({ count: 5, minSeconds: 15, maxSeconds: 60 });

    const refused = await post({ ...file, clipOptions: { minSeconds: 40, maxSeconds: 30 } });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /clipOptions\.maxSeconds/,
    );
    expect((await post({ ...file, clipOptions: { count: 50 } })).status).toBe(422);
    // A misspelt field is refused by name rather than dropped: the clips asked for would
    // silently become the defaults.
    const misspelt = await post({ ...file, clipoptions: { count: 3 } });
    expect(misspelt.status).toBe(422);
    expect(((await misspelt.json()) as { error: { message: string } }).error.message).toMatch(
      /Unrecognized key.*clipoptions/,
    );

    const imported = await importRoute(
      request("POST", `${base}/import`, cookie, {
        url: "https://videos.example.com/talk.mp4",
        clipOptions: { count: 3 },
      }),
      paramsOf({}) as never,
    );
    expect(imported.status).toBe(202);
    expect(((await imported.json()) as { video: { clipOptions: unknown } }).video.clipOptions).toEqual({
      count: 3,
      minSeconds: 15,
      maxSeconds: 60,
    });
  });

  it("asking for other clips needs a ready video (409) and possible options (422)", async () => {
    const { cookie } = await createSignedInCreator({ runtime });
    const { video } = await createUpload(cookie, MiB);
    const patch = (body: unknown) =>
      patchVideoRoute(request("PATCH", `${base}/${video.id}`, cookie, body), paramsOf({ videoId: video.id }));
    const early = await patch({ clipOptions: { count: 3 } });
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { message: string } }).error.message).toBe(
      "Other clips can be asked for once the video is ready; it is uploading.",
    );
    expect((await patch({ clipOptions: { count: 0 } })).status).toBe(422);
    expect((await patch({})).status).toBe(422);
  });

  it("import answers 422 for a private address (not allowed by default)", async () => {
    const { cookie } = await createSignedInCreator({ runtime });
    const response = await importRoute(
      request("POST", `${base}/import`, cookie, { url: "http://169.254.169.254/latest/meta-data" }),
      paramsOf({}) as never,
    );
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /only public addresses can be imported/,
    );
    // Told in words a creator reads, not the schema's.
    const tooLong = await importRoute(
      request("POST", `${base}/import`, cookie, { url: `https://example.com/${"a".repeat(2100)}.mp4` }),
      paramsOf({}) as never,
    );
    expect(tooLong.status).toBe(422);
    expect(await tooLong.json()).toEqual({
      error: { code: "validation_failed", message: "This URL is too long: at most 2,048 characters." },
    });
  });

  it("creator B gets 404 for creator A's video on every route", async () => {
    const a = await createSignedInCreator({ runtime });
    const b = await createSignedInCreator({ runtime });
    const { video } = await createUpload(a.cookie, 100 * MiB);
    const videoId = video.id;
    const url = `${base}/${videoId}`;
    const asB = [
      await getVideoRoute(request("GET", url, b.cookie), paramsOf({ videoId })),
      await resumeRoute(request("GET", `${url}/upload`, b.cookie), paramsOf({ videoId })),
      await signPartsRoute(
        request("POST", `${url}/upload-parts`, b.cookie, { partNumbers: [1] }),
        paramsOf({ videoId }),
      ),
      await recordPartRoute(
        request("PUT", `${url}/upload-parts/1`, b.cookie, { etag: '"abc"' }),
        paramsOf({ videoId, partNumber: "1" }),
      ),
      await completeRoute(request("POST", `${url}/upload-complete`, b.cookie, {}), paramsOf({ videoId })),
      await putCaptionsRoute(
        request("PUT", `${url}/captions`, b.cookie, { fileName: "a.srt", text: SRT }),
        paramsOf({ videoId }),
      ),
      await deleteCaptionsRoute(request("DELETE", `${url}/captions`, b.cookie), paramsOf({ videoId })),
      await patchVideoRoute(
        request("PATCH", url, b.cookie, { clipOptions: { count: 3 } }),
        paramsOf({ videoId }),
      ),
      await deleteVideoRoute(request("DELETE", url, b.cookie), paramsOf({ videoId })),
    ];
    for (const response of asB) {
      expect(response.status).toBe(404);
      expect(await errorCode(response)).toBe("not_found");
    }
    const listB = await listRoute(request("GET", base, b.cookie), paramsOf({}) as never);
    expect(((await listB.json()) as { videos: unknown[] }).videos).toEqual([]);

    // A still has it, untouched; A's own calls work.
    const mine = await getVideoRoute(request("GET", url, a.cookie), paramsOf({ videoId }));
    expect(mine.status).toBe(200);
    expect(((await mine.json()) as { video: { status: string } }).video.status).toBe("UPLOADING");
    const resumed = await resumeRoute(request("GET", `${url}/upload`, a.cookie), paramsOf({ videoId }));
    expect(resumed.status).toBe(200);
    const signed = await signPartsRoute(
      request("POST", `${url}/upload-parts`, a.cookie, { partNumbers: [3] }),
      paramsOf({ videoId }),
    );
    expect(
      ((await signed.json()) as { parts: { partNumber: number }[] }).parts.map((part) => part.partNumber),
    ).toEqual([3]);
    const incomplete = await completeRoute(
      request("POST", `${url}/upload-complete`, a.cookie, {}),
      paramsOf({ videoId }),
    );
    expect(incomplete.status).toBe(409);
    const deleted = await deleteVideoRoute(request("DELETE", url, a.cookie), paramsOf({ videoId }));
    expect(deleted.status).toBe(204);
    expect((await getVideoRoute(request("GET", url, a.cookie), paramsOf({ videoId }))).status).toBe(404);
  });

  it("captions: 200 with the file's details, 422 for a file that is not subtitles, 413 over 2 MB", async () => {
    const { cookie } = await createSignedInCreator({ runtime });
    const { video } = await createUpload(cookie, 100 * MiB);
    const videoId = video.id;
    const put = (body: unknown) =>
      putCaptionsRoute(request("PUT", `${base}/${videoId}/captions`, cookie, body), paramsOf({ videoId }));

    const saved = await put({ fileName: "talk.srt", text: SRT });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({
      video: { id: videoId, captions: { fileName: "talk.srt", format: "srt", cueCount: 2 } },
      clipsRerendering: 0,
    });
    const notSubtitles = await put({ fileName: "talk.srt", text: "Dear diary" });
    expect(notSubtitles.status).toBe(422);
    expect(((await notSubtitles.json()) as { error: { message: string } }).error.message).toMatch(
      /not an SRT or WebVTT file/,
    );
    expect((await put({ fileName: "talk.srt" })).status).toBe(422);
    const empty = await put({ fileName: "empty.srt", text: " \n" });
    expect(empty.status).toBe(422);
    expect(((await empty.json()) as { error: { message: string } }).error.message).toBe(
      "empty.srt is empty: it has no captions to show.",
    );
    const huge = await put({ fileName: "talk.srt", text: `${SRT}${"x".repeat(2 * MiB)}` });
    expect(huge.status).toBe(413);
    // The refused files left the first one in place; removing it answers the video without it.
    const kept = await getVideoRoute(request("GET", `${base}/${videoId}`, cookie), paramsOf({ videoId }));
    expect(
      ((await kept.json()) as { video: { captions: { fileName: string } } }).video.captions.fileName,
    ).toBe("talk.srt");
    const removed = await deleteCaptionsRoute(
      request("DELETE", `${base}/${videoId}/captions`, cookie),
      paramsOf({ videoId }),
    );
    expect(removed.status).toBe(200);
    expect(((await removed.json()) as { video: { captions: unknown } }).video.captions).toBeNull();
  });

  it("pages the list with a cursor bound to the caller", async () => {
    const a = await createSignedInCreator({ runtime });
    const b = await createSignedInCreator({ runtime });
    for (let index = 0; index < 3; index++) await createUpload(a.cookie, 1000);
    const first = await listRoute(request("GET", `${base}?limit=2`, a.cookie), paramsOf({}) as never);
    const page = (await first.json()) as { videos: unknown[]; nextCursor: string };
    expect(page.videos).toHaveLength(2);
    const second = await listRoute(
      request("GET", `${base}?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`, a.cookie),
      paramsOf({}) as never,
    );
    expect(((await second.json()) as { videos: unknown[] }).videos).toHaveLength(1);
    const foreign = await listRoute(
      request("GET", `${base}?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`, b.cookie),
      paramsOf({}) as never,
    );
    expect(foreign.status).toBe(400);
  });
});
