import { GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import {
  activeRenderKey,
  activeRenderShardOf,
  CLIP_RANK_SK_PREFIX,
  CLIP_SK_PREFIX,
  clipRankKey,
  creatorPk,
} from "@/db/keys";
import type { QueryStats } from "@/db/table";
import { clipIdFor, createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { testTable } from "../../../dev/test/runtime";
import {
  type Clip,
  clipNeedsRender,
  deleteClip,
  editClip,
  findClipById,
  listActiveRenders,
  listClipsByScore,
  listClipsByVideo,
  listClipsNewestFirst,
  type MomentForClip,
  markClipRendered,
  requeueClipRender,
  setClipRenderStatus,
  updateClipScore,
  upsertClipsForVideo,
} from "./clip-repo";

const table = testTable();

function moment(ordinal: number, score: number, startSeconds = ordinal * 60): MomentForClip {
  return {
    ordinal,
    startSeconds,
    endSeconds: startSeconds + 20,
    score,
    subscores: { hook: score, audioEnergy: 50, visualDynamics: 40, speech: 30, chat: null },
    reasons: [{ atSeconds: startSeconds + 2, text: `Loud burst at ${startSeconds + 2}s` }],
    title: `Moment ${ordinal}`,
    hookLine: ordinal === 0 ? "Wait for it" : null,
    platformCopy: null,
  };
}

function renderOf(clip: Clip) {
  const base = `videos/${clip.videoId}/clips/${clip.clipId}/r${clip.revision}`;
  return {
    revision: clip.revision,
    videoKey: `${base}.mp4`,
    thumbnailKey: `${base}.jpg`,
    previewKey: `${base}.preview.webp`,
    layout: "crop" as const,
    width: 1080,
    height: 1920,
    durationSeconds: clip.endSeconds - clip.startSeconds,
    startSeconds: clip.startSeconds,
    endSeconds: clip.endSeconds,
  };
}

async function rankItemKeys(creatorId: string): Promise<string[]> {
  const output = await table.documentClient.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :prefix)",
      ExpressionAttributeValues: { ":pk": creatorPk(creatorId), ":prefix": CLIP_RANK_SK_PREFIX },
    }),
  );
  return (output.Items ?? []).map((item) => String(item.SK));
}

async function clipItemKeys(creatorId: string): Promise<string[]> {
  const output = await table.documentClient.send(
    new QueryCommand({
      TableName: table.tableName,
      KeyConditionExpression: "PK = :pk AND begins_with(SK, :prefix)",
      ExpressionAttributeValues: { ":pk": creatorPk(creatorId), ":prefix": CLIP_SK_PREFIX },
    }),
  );
  return (output.Items ?? []).map((item) => String(item.SK));
}

const collect = (into: QueryStats[]) => (stats: QueryStats) => into.push(stats);

describe("clip repository", () => {
  it("writes each clip with its rank item, and a redelivered analysis creates no duplicates", async () => {
    const creatorId = createId("creator");
    const videoId = createId("video");
    const moments = [moment(0, 87.4), moment(1, 64), moment(2, 41)];
    const first = await upsertClipsForVideo({ table, creatorId, videoId, videoTitle: "talk.mp4", moments });
    expect(first.created).toBe(3);
    expect(first.clips.map((clip) => clip.clipId)).toEqual(
      [0, 1, 2].map((ordinal) => clipIdFor(videoId, ordinal)),
    );
    expect(first.clips[0]).toMatchObject({
      score: 87,
      status: "PENDING",
      revision: 0,
      render: null,
      version: 1,
    });

    const rank = await table.documentClient.send(
      new GetCommand({ TableName: table.tableName, Key: clipRankKey(creatorId, 87, clipIdFor(videoId, 0)) }),
    );
    expect(rank.Item).toMatchObject({
      type: "ClipRank",
      title: "Moment 0",
      videoTitle: "talk.mp4",
      score: 87,
    });

    // The first clip renders, then the job is redelivered and runs the same analysis again.
    const rendered = await markClipRendered({
      table,
      creatorId,
      clipId: first.clips[0]!.clipId,
      render: renderOf(first.clips[0]!),
    });
    expect(rendered?.clip.status).toBe("READY");
    const again = await upsertClipsForVideo({ table, creatorId, videoId, videoTitle: "talk.mp4", moments });
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(again.clips[0]?.status).toBe("READY");
    expect(clipNeedsRender(again.clips[0]!)).toBe(false);
    expect(clipNeedsRender(again.clips[1]!)).toBe(true);

    expect(await clipItemKeys(creatorId)).toHaveLength(3);
    expect(await rankItemKeys(creatorId)).toHaveLength(3);
  });

  it("moves the rank item when an analysis re-run changes a score, and drops clips it no longer has", async () => {
    const creatorId = createId("creator");
    const videoId = createId("video");
    await upsertClipsForVideo({
      table,
      creatorId,
      videoId,
      videoTitle: "v.mp4",
      moments: [moment(0, 80), moment(1, 70), moment(2, 60)],
    });
    const rerun = await upsertClipsForVideo({
      table,
      creatorId,
      videoId,
      videoTitle: "v.mp4",
      moments: [moment(0, 90), moment(1, 70)],
    });
    expect(rerun).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(rerun.removed.map((clip) => clip.ordinal)).toEqual([2]);
    const ranks = await rankItemKeys(creatorId);
    expect(ranks).toEqual([
      clipRankKey(creatorId, 70, clipIdFor(videoId, 1)).SK,
      clipRankKey(creatorId, 90, clipIdFor(videoId, 0)).SK,
    ]);
    expect(await clipItemKeys(creatorId)).toHaveLength(2);
  });

  it("lists newest first with a cursor, reading only the items it returns, pages joining up", async () => {
    const creatorId = createId("creator");
    const olderVideo = createId("video", Date.now() - 60_000);
    const newerVideo = createId("video");
    await upsertClipsForVideo({
      table,
      creatorId,
      videoId: olderVideo,
      videoTitle: "old.mp4",
      moments: [moment(0, 50), moment(1, 40)],
    });
    await upsertClipsForVideo({
      table,
      creatorId,
      videoId: newerVideo,
      videoTitle: "new.mp4",
      moments: [moment(0, 30), moment(1, 20), moment(2, 10)],
    });
    const stats: QueryStats[] = [];
    const page1 = await listClipsNewestFirst({ table, creatorId, limit: 3, onStats: collect(stats) });
    expect(page1.items.map((clip) => clip.videoId)).toEqual([newerVideo, newerVideo, newerVideo]);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await listClipsNewestFirst({
      table,
      creatorId,
      limit: 3,
      cursor: page1.nextCursor,
      onStats: collect(stats),
    });
    expect(page2.items.map((clip) => clip.videoId)).toEqual([olderVideo, olderVideo]);
    expect(stats).toHaveLength(2);
    for (const entry of stats) expect(entry.scannedCount).toBe(entry.count);
    expect(stats.map((entry) => entry.count)).toEqual([3, 2]);
    // List pages never carry the platform copy (only the detail does).
    expect(page1.items[0]).not.toHaveProperty("platformCopy");

    // One Query a page, descending: within a video its clips come in reverse rank, as keyed.
    const expected = [
      clipIdFor(newerVideo, 2),
      clipIdFor(newerVideo, 1),
      clipIdFor(newerVideo, 0),
      clipIdFor(olderVideo, 1),
      clipIdFor(olderVideo, 0),
    ];
    const onePage = await listClipsNewestFirst({ table, creatorId, limit: 50 });
    expect(onePage.items.map((clip) => clip.clipId)).toEqual(expected);
    expect(onePage.nextCursor).toBeNull();

    // Pages of any size join up to the one listing.
    for (const limit of [1, 2, 3, 4]) {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const page: Awaited<ReturnType<typeof listClipsNewestFirst>> = await listClipsNewestFirst({
          table,
          creatorId,
          limit,
          cursor,
        });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        pages.push(page.items.map((clip) => clip.clipId));
        cursor = page.nextCursor;
      } while (cursor && pages.length < 10);
      expect(pages.flat(), `limit ${limit}: ${JSON.stringify(pages)}`).toEqual(expected);
    }
  });

  it("lists by score, highest first, with minScore as a key range and cursors bound to it", async () => {
    const creatorId = createId("creator");
    const videoA = createId("video");
    const videoB = createId("video");
    await upsertClipsForVideo({
      table,
      creatorId,
      videoId: videoA,
      videoTitle: "a.mp4",
      moments: [moment(0, 95), moment(1, 72), moment(2, 15)],
    });
    await upsertClipsForVideo({
      table,
      creatorId,
      videoId: videoB,
      videoTitle: "b.mp4",
      moments: [moment(0, 80), moment(1, 80), moment(2, 5)],
    });
    const stats: QueryStats[] = [];
    const all = await listClipsByScore({ table, creatorId, limit: 50, onStats: collect(stats) });
    expect(all.items.map((clip) => clip.score)).toEqual([95, 80, 80, 72, 15, 5]);
    expect(all.nextCursor).toBeNull();

    const top = await listClipsByScore({ table, creatorId, minScore: 72, limit: 2, onStats: collect(stats) });
    expect(top.items.map((clip) => clip.score)).toEqual([95, 80]);
    const rest = await listClipsByScore({
      table,
      creatorId,
      minScore: 72,
      limit: 2,
      cursor: top.nextCursor,
      onStats: collect(stats),
    });
    expect(rest.items.map((clip) => clip.score)).toEqual([80, 72]);
    // The summary carries what a list shows, straight from the rank item.
    expect(rest.items[1]).toMatchObject({
      title: "Moment 1",
      videoTitle: "a.mp4",
      reasons: [expect.any(Object)],
    });
    for (const entry of stats) expect(entry.scannedCount).toBe(entry.count);

    // A cursor from the ≥72 listing is no good for ≥10, nor for another creator.
    await expect(
      listClipsByScore({ table, creatorId, minScore: 10, limit: 2, cursor: top.nextCursor }),
    ).rejects.toMatchObject({ code: "bad_request" });
    await expect(
      listClipsByScore({
        table,
        creatorId: createId("creator"),
        minScore: 72,
        limit: 2,
        cursor: top.nextCursor,
      }),
    ).rejects.toBeInstanceOf(AppError);
  });

  it("lists one video's clips in rank order with one Query", async () => {
    const creatorId = createId("creator");
    const videoA = createId("video");
    const videoB = createId("video");
    await upsertClipsForVideo({
      table,
      creatorId,
      videoId: videoA,
      videoTitle: "a",
      moments: [moment(1, 10), moment(0, 90)],
    });
    await upsertClipsForVideo({
      table,
      creatorId,
      videoId: videoB,
      videoTitle: "b",
      moments: [moment(0, 50)],
    });
    const stats: QueryStats[] = [];
    const clips = await listClipsByVideo({ table, creatorId, videoId: videoA, onStats: collect(stats) });
    expect(clips.map((clip) => clip.ordinal)).toEqual([0, 1]);
    expect(stats).toEqual([expect.objectContaining({ count: 2, scannedCount: 2 })]);
  });

  it("edits a range: new revision, rank moved, old render kept; stale versions and renders are refused", async () => {
    const creatorId = createId("creator");
    const videoId = createId("video");
    const [clip] = (
      await upsertClipsForVideo({ table, creatorId, videoId, videoTitle: "v", moments: [moment(0, 60, 100)] })
    ).clips;
    const ready = (await markClipRendered({
      table,
      creatorId,
      clipId: clip!.clipId,
      render: renderOf(clip!),
    }))!.clip;

    const edited = await editClip({
      table,
      creatorId,
      clipId: clip!.clipId,
      expectedVersion: ready.version,
      startSeconds: 95,
      endSeconds: 125,
      layoutChoice: "auto",
      rescored: { score: 71, subscores: { ...clip!.subscores, hook: 90 }, reasons: [] },
    });
    expect(edited).toMatchObject({
      revision: 1,
      status: "PENDING",
      score: 71,
      startSeconds: 95,
      endSeconds: 125,
    });
    expect(edited.render?.revision).toBe(0);
    expect(edited.rangeEditedAt).not.toBeNull();
    expect(await rankItemKeys(creatorId)).toEqual([clipRankKey(creatorId, 71, clip!.clipId).SK]);

    await expect(
      editClip({
        table,
        creatorId,
        clipId: clip!.clipId,
        expectedVersion: ready.version,
        startSeconds: 90,
        endSeconds: 120,
        layoutChoice: "auto",
      }),
    ).rejects.toMatchObject({ code: "conflict" });

    // A render of revision 0 finishing late is stale now; revision 1 lands and replaces revision 0's.
    expect(
      await markClipRendered({ table, creatorId, clipId: clip!.clipId, render: renderOf(clip!) }),
    ).toBeNull();
    expect(
      await setClipRenderStatus({ table, creatorId, clipId: clip!.clipId, revision: 0, status: "RENDERING" }),
    ).toBeNull();
    const rendering = await setClipRenderStatus({
      table,
      creatorId,
      clipId: clip!.clipId,
      revision: 1,
      status: "RENDERING",
    });
    expect(rendering?.status).toBe("RENDERING");
    const landed = await markClipRendered({
      table,
      creatorId,
      clipId: clip!.clipId,
      render: renderOf(edited),
    });
    expect(landed?.clip).toMatchObject({ status: "READY", render: { revision: 1, startSeconds: 95 } });
    expect(landed?.replaced?.revision).toBe(0);
    // A job that read the clip before that render landed (the video's job, beside the clip's own
    // render job) does not start the same revision again: the clip stays READY.
    expect(
      await setClipRenderStatus({ table, creatorId, clipId: clip!.clipId, revision: 1, status: "RENDERING" }),
    ).toBeNull();
    expect((await findClipById({ table, creatorId, clipId: clip!.clipId }))?.status).toBe("READY");

    // A re-run of the analysis does not undo the creator's edit.
    const rerun = await upsertClipsForVideo({
      table,
      creatorId,
      videoId,
      videoTitle: "v",
      moments: [moment(0, 60, 100)],
    });
    expect(rerun.unchanged).toBe(1);
    expect(rerun.clips[0]).toMatchObject({ startSeconds: 95, score: 71 });

    const rescored = await updateClipScore({
      table,
      creatorId,
      clipId: clip!.clipId,
      revision: 1,
      scored: { score: 33.6, subscores: edited.subscores, reasons: [{ atSeconds: 96, text: "Quiet start" }] },
    });
    expect(rescored?.score).toBe(34);
    expect(await rankItemKeys(creatorId)).toEqual([clipRankKey(creatorId, 34, clip!.clipId).SK]);
    // The same score again writes nothing: the version a creator's edit holds stays valid.
    const unchanged = await updateClipScore({
      table,
      creatorId,
      clipId: clip!.clipId,
      revision: 1,
      scored: { score: 33.6, subscores: { ...rescored!.subscores }, reasons: rescored!.reasons },
    });
    expect(unchanged).toEqual(rescored);
    expect((await findClipById({ table, creatorId, clipId: clip!.clipId }))?.version).toBe(rescored!.version);
    // A title given is written with the score; without one, the clip keeps its own.
    const retitled = await updateClipScore({
      table,
      creatorId,
      clipId: clip!.clipId,
      revision: 1,
      scored: { score: 34, subscores: rescored!.subscores, reasons: [], title: "Talking point at 1:36" },
    });
    expect(retitled).toMatchObject({
      title: "Talking point at 1:36",
      reasons: [],
      version: rescored!.version + 1,
    });
    const untitled = await updateClipScore({
      table,
      creatorId,
      clipId: clip!.clipId,
      revision: 1,
      scored: { score: 35, subscores: rescored!.subscores, reasons: [] },
    });
    expect(untitled).toMatchObject({ score: 35, title: "Talking point at 1:36" });

    // A new layout alone is a new revision too; the range, and when it was edited, stay.
    const relaid = await editClip({
      table,
      creatorId,
      clipId: clip!.clipId,
      expectedVersion: untitled!.version,
      startSeconds: 95,
      endSeconds: 125,
      layoutChoice: "fit",
    });
    expect(relaid).toMatchObject({ revision: 2, status: "PENDING", layoutChoice: "fit", startSeconds: 95 });
    expect(relaid.rangeEditedAt).toBe(edited.rangeEditedAt);
    expect((await findClipById({ table, creatorId, clipId: clip!.clipId }))?.layoutChoice).toBe("fit");
  });

  it("keeps an active-render entry exactly while a render is owed, in the clip's own transactions", async () => {
    const creatorId = createId("creator");
    const videoId = createId("video");
    const [created] = (
      await upsertClipsForVideo({ table, creatorId, videoId, videoTitle: "v", moments: [moment(0, 55)] })
    ).clips;
    const clipId = created!.clipId;
    const entry = async () =>
      (await listActiveRenders({ table, shard: activeRenderShardOf(clipId) })).find(
        (candidate) => candidate.clipId === clipId,
      );
    const entryExists = async () =>
      (
        await table.documentClient.send(
          new GetCommand({ TableName: table.tableName, Key: activeRenderKey(clipId), ConsistentRead: true }),
        )
      ).Item !== undefined;

    expect(await entry()).toEqual({
      creatorId,
      videoId,
      clipId,
      revision: 0,
      status: "PENDING",
      updatedAt: created!.updatedAt,
    });
    // The sweep reads a shard whole: it reads what it returns, nothing more.
    const stats: QueryStats[] = [];
    const shard = await listActiveRenders({
      table,
      shard: activeRenderShardOf(clipId),
      onStats: collect(stats),
    });
    expect(stats.length).toBeGreaterThanOrEqual(1);
    expect(stats.reduce((sum, page) => sum + page.count, 0)).toBe(shard.length);
    for (const page of stats) expect(page.scannedCount).toBe(page.count);
    const rendering = await setClipRenderStatus({
      table,
      creatorId,
      clipId,
      revision: 0,
      status: "RENDERING",
    });
    expect(await entry()).toMatchObject({ status: "RENDERING", updatedAt: rendering!.updatedAt });
    const ready = (await markClipRendered({ table, creatorId, clipId, render: renderOf(created!) }))!.clip;
    expect(await entryExists()).toBe(false);

    // An edit owes a render again; the sweep's requeue counts it; a failure ends it.
    const edited = await editClip({
      table,
      creatorId,
      clipId,
      expectedVersion: ready.version,
      startSeconds: 3,
      endSeconds: 25,
      layoutChoice: "auto",
    });
    expect(await entry()).toMatchObject({ revision: 1, status: "PENDING" });
    const waited = await requeueClipRender({ table, creatorId, clipId, expectedVersion: edited.version });
    expect(waited).toMatchObject({ revision: 1, status: "PENDING", renderStalls: 0 });
    await expect(
      requeueClipRender({ table, creatorId, clipId, expectedVersion: edited.version }),
    ).rejects.toMatchObject({ code: "conflict" });
    // A render that started and was lost counts as a stall.
    const started = await setClipRenderStatus({ table, creatorId, clipId, revision: 1, status: "RENDERING" });
    const stalled = await requeueClipRender({ table, creatorId, clipId, expectedVersion: started!.version });
    expect(stalled).toMatchObject({ revision: 1, status: "PENDING", renderStalls: 1 });
    await setClipRenderStatus({
      table,
      creatorId,
      clipId,
      revision: 1,
      status: "FAILED",
      failureReason: "x",
    });
    expect(await entryExists()).toBe(false);
    const failed = await findClipById({ table, creatorId, clipId, consistent: true });
    expect(
      await requeueClipRender({ table, creatorId, clipId, expectedVersion: failed!.version }),
    ).toBeNull();

    // A new revision starts its count again; deleting the clip deletes its entry.
    const again = await editClip({
      table,
      creatorId,
      clipId,
      expectedVersion: failed!.version,
      startSeconds: 4,
      endSeconds: 25,
      layoutChoice: "auto",
    });
    expect(again).toMatchObject({ revision: 2, renderStalls: 0 });
    expect(await entryExists()).toBe(true);
    await deleteClip({ table, creatorId, clipId: again.clipId });
    expect(await entryExists()).toBe(false);
  });

  it("deletes a clip with the rank item of its current score, even when a re-score lands between the read and the delete", async () => {
    const creatorId = createId("creator");
    const videoId = createId("video");
    const [clip] = (
      await upsertClipsForVideo({ table, creatorId, videoId, videoTitle: "v", moments: [moment(0, 60)] })
    ).clips;
    const { clipId, revision } = clip!;
    let rescores = 0;
    await deleteClip({
      table,
      creatorId,
      clipId,
      // A render job re-scores the clip (moving its rank item) right after the delete read it.
      afterRead: async () => {
        if (rescores++ > 0) return;
        await updateClipScore({
          table,
          creatorId,
          clipId,
          revision,
          scored: { score: 75, subscores: clip!.subscores, reasons: clip!.reasons },
        });
      },
    });
    expect(rescores).toBeGreaterThan(0);
    expect(await clipItemKeys(creatorId)).toEqual([]);
    expect(await rankItemKeys(creatorId)).toEqual([]);
    expect(await listClipsByScore({ table, creatorId, limit: 10 })).toEqual({ items: [], nextCursor: null });
    // Repeatable.
    expect(await deleteClip({ table, creatorId, clipId })).toBe(false);
  });

  it("keeps clips in their creator's partition", async () => {
    const owner = createId("creator");
    const videoId = createId("video");
    const { clips } = await upsertClipsForVideo({
      table,
      creatorId: owner,
      videoId,
      videoTitle: "v",
      moments: [moment(0, 50)],
    });
    const clipId = clips[0]!.clipId;
    expect(await findClipById({ table, creatorId: owner, clipId })).toBeDefined();
    expect(await findClipById({ table, creatorId: createId("creator"), clipId })).toBeUndefined();
    await expect(
      editClip({
        table,
        creatorId: createId("creator"),
        clipId,
        expectedVersion: 1,
        startSeconds: 1,
        endSeconds: 20,
        layoutChoice: "auto",
      }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
