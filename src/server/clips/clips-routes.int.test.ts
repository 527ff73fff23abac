import { DeleteMessageCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getClipRoute, PATCH as patchClip } from "@/app/api/clips/[clipId]/route";
import { GET as listClipsRoute } from "@/app/api/clips/route";
import { type Clip, upsertClipsForVideo } from "@/db/repos/clip-repo";
import { testProbe } from "@/engine/testing/test-probe";
import { createId } from "@/lib/ids";
import { getQueueUrl } from "@/queue/queue-url";
import { createSignedInCreator } from "@/server/auth/testing/create-signed-in-creator";
import { getRuntime, tableOf } from "@/server/runtime";
import { recordQueuedVideo } from "@/worker/testing/create-queued-test-video";
import { provisionResources } from "../../../dev/provision";

/**
 * /api/clips through the real route handlers and `withCreator`: authentication, the query
 * rules, cursors bound to their caller, 404 for other creators' clips, and a range edit that
 * queues a re-render. The routes' runtime uses a queue of this file's own.
 */
process.env.TRUSS_QUEUE_NAME = `truss-clip-routes-${process.pid}`;
process.env.TRUSS_DLQ_NAME = `truss-clip-routes-dlq-${process.pid}`;

const runtime = getRuntime();
const table = tableOf(runtime);
const base = `${runtime.config.appUrl}/api/clips`;
const noParams = { params: Promise.resolve({}) as Promise<Record<string, never>> };
const clipParams = (clipId: string) => ({ params: Promise.resolve({ clipId }) });

let owner: { creatorId: string; cookie: string };
let stranger: { creatorId: string; cookie: string };
let videoId: string;
let clips: Clip[];

const PROBE = testProbe({ durationSeconds: 600, sizeBytes: 300_000_000 });

const list = (cookie: string | null, query = "") =>
  listClipsRoute(new Request(`${base}${query}`, { headers: cookie ? { cookie } : {} }), noParams);
const getOne = (cookie: string, clipId: string) =>
  getClipRoute(new Request(`${base}/${clipId}`, { headers: { cookie } }), clipParams(clipId));
const patch = (
  cookie: string,
  clipId: string,
  body: unknown,
  origin = runtime.config.appUrl,
  extraHeaders: Record<string, string> = {},
) =>
  patchClip(
    new Request(`${base}/${clipId}`, {
      method: "PATCH",
      headers: {
        cookie,
        origin,
        "content-type": "application/json",
        host: new URL(runtime.config.appUrl).host,
        ...extraHeaders,
      },
      body: JSON.stringify(body),
    }),
    clipParams(clipId),
  );

beforeAll(async () => {
  const { clients, config } = runtime;
  await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  owner = await createSignedInCreator({ runtime });
  stranger = await createSignedInCreator({ runtime });
  videoId = createId("video");
  const { creatorId } = owner;
  await recordQueuedVideo({ table, creatorId, videoId, filename: "talk.mp4", probe: PROBE });
  ({ clips } = await upsertClipsForVideo({
    table,
    creatorId,
    videoId,
    videoTitle: "talk.mp4",
    moments: [90, 60, 20].map((score, ordinal) => ({
      ordinal,
      startSeconds: 100 * ordinal + 10,
      endSeconds: 100 * ordinal + 40,
      score,
      subscores: { hook: score, audioEnergy: score, visualDynamics: score, speech: score, chat: null },
      reasons: [{ atSeconds: 100 * ordinal + 12, text: "Applause" }],
      title: `Moment ${ordinal + 1}`,
      hookLine: null,
      platformCopy: null,
    })),
  }));
});

describe("/api/clips", () => {
  it("needs a session or token", async () => {
    const response = await list(null);
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
  });

  it("lists newest first, or by score with minScore as a range, a page at a time", async () => {
    const newest = await list(owner.cookie);
    expect(newest.status).toBe(200);
    const newestBody = await newest.json();
    expect(newestBody.clips.map((clip: { rank: number }) => clip.rank)).toEqual([1, 2, 3]);
    expect(newestBody.nextCursor).toBeNull();

    const firstPage = await (await list(owner.cookie, "?sort=score&limit=2")).json();
    expect(firstPage.clips.map((clip: { score: number }) => clip.score)).toEqual([90, 60]);
    const secondPage = await (
      await list(owner.cookie, `?sort=score&limit=2&cursor=${encodeURIComponent(firstPage.nextCursor)}`)
    ).json();
    expect(secondPage.clips.map((clip: { score: number }) => clip.score)).toEqual([20]);

    // minScore alone means "by score".
    const top = await (await list(owner.cookie, "?minScore=50")).json();
    expect(top.clips.map((clip: { score: number }) => clip.score)).toEqual([90, 60]);

    expect((await list(owner.cookie, "?sort=newest&minScore=50")).status).toBe(422);
    expect((await list(owner.cookie, "?minScore=101")).status).toBe(422);
    expect((await list(owner.cookie, "?sort=best")).status).toBe(422);
    // The owner's cursor is worthless to anyone else, and for another listing.
    const foreign = await list(
      stranger.cookie,
      `?sort=score&limit=2&cursor=${encodeURIComponent(firstPage.nextCursor)}`,
    );
    expect(foreign.status).toBe(400);
    const otherList = await list(
      owner.cookie,
      `?sort=newest&cursor=${encodeURIComponent(firstPage.nextCursor)}`,
    );
    expect(otherList.status).toBe(400);
    // A stranger sees no clips at all.
    expect((await (await list(stranger.cookie)).json()).clips).toEqual([]);
  });

  it("answers one clip to its owner only", async () => {
    const clipId = clips[0]!.clipId;
    const response = await getOne(owner.cookie, clipId);
    expect(response.status).toBe(200);
    expect((await response.json()).clip).toMatchObject({ clipId, score: 90, media: null, status: "PENDING" });
    expect((await getOne(stranger.cookie, clipId)).status).toBe(404);
    expect((await getOne(owner.cookie, "clip_nope")).status).toBe(404);
  });

  it("edits a range or layout: validated, owner only, same-origin, and a render job is queued", async () => {
    const clipId = clips[1]!.clipId;
    expect((await patch(stranger.cookie, clipId, { startSeconds: 100, endSeconds: 130 })).status).toBe(404);
    expect((await patch(owner.cookie, clipId, { startSeconds: 130, endSeconds: 100 })).status).toBe(422);
    expect((await patch(owner.cookie, clipId, { startSeconds: 590, endSeconds: 620 })).status).toBe(422);
    expect((await patch(owner.cookie, clipId, { startSeconds: 100, endSeconds: 130, extra: 1 })).status).toBe(
      422,
    );
    expect((await patch(owner.cookie, clipId, {})).status).toBe(422);
    expect((await patch(owner.cookie, clipId, { layout: "square" })).status).toBe(422);
    expect(
      (await patch(owner.cookie, clipId, { startSeconds: 100, endSeconds: 130 }, "https://evil.example"))
        .status,
    ).toBe(403);
    // A forwarded host the client sent itself does not make another origin ours.
    expect(
      (
        await patch(owner.cookie, clipId, { startSeconds: 100, endSeconds: 130 }, "https://evil.example", {
          "x-forwarded-host": "evil.example",
        })
      ).status,
    ).toBe(403);

    const response = await patch(owner.cookie, clipId, {
      startSeconds: 105.5,
      endSeconds: 135,
      expectedVersion: clips[1]!.version,
    });
    expect(response.status).toBe(202);
    expect((await response.json()).clip).toMatchObject({
      revision: 1,
      status: "PENDING",
      startSeconds: 105.5,
    });
    expect(
      (
        await patch(owner.cookie, clipId, {
          startSeconds: 100,
          endSeconds: 130,
          expectedVersion: clips[1]!.version,
        })
      ).status,
    ).toBe(409);
    // A layout alone keeps the range.
    const relaid = await patch(owner.cookie, clipId, { layout: "facecam" });
    expect(relaid.status).toBe(202);
    expect((await relaid.json()).clip).toMatchObject({ revision: 2, layout: "facecam", startSeconds: 105.5 });

    const queueUrl = await getQueueUrl(runtime.clients.sqs, runtime.config.aws.queueName);
    const received = await runtime.clients.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    expect((received.Messages ?? []).map((message) => JSON.parse(message.Body ?? "{}"))).toEqual([
      expect.objectContaining({
        name: "render-clip",
        payload: { creatorId: owner.creatorId, videoId, clipId, revision: 1 },
      }),
      expect.objectContaining({
        name: "render-clip",
        payload: { creatorId: owner.creatorId, videoId, clipId, revision: 2 },
      }),
    ]);
  });
  it("queues one render for the same edit sent several times", async () => {
    const clipId = clips[2]!.clipId;
    const edit = { startSeconds: 212, endSeconds: 236.5, layout: "fit" };
    for (let attempt = 0; attempt < 4; attempt++) {
      const response = await patch(owner.cookie, clipId, edit);
      expect(response.status).toBe(202);
      expect((await response.json()).clip).toMatchObject({ revision: 1, status: "PENDING", layout: "fit" });
    }
    const queueUrl = await getQueueUrl(runtime.clients.sqs, runtime.config.aws.queueName);
    const jobs: { name: string; payload: { clipId: string } }[] = [];
    for (;;) {
      const received = await runtime.clients.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      if (!received.Messages?.length) break;
      for (const message of received.Messages) {
        jobs.push(JSON.parse(message.Body ?? "{}"));
        await runtime.clients.sqs.send(
          new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }),
        );
      }
    }
    expect(jobs.filter((job) => job.payload.clipId === clipId)).toEqual([
      expect.objectContaining({
        name: "render-clip",
        payload: { creatorId: owner.creatorId, videoId, clipId, revision: 1 },
      }),
    ]);
  });
});
