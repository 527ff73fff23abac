import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import {
  activeRenderKey,
  activeVideoKey,
  activeVideoShardOf,
  CLIP_RANK_SK_PREFIX,
  chaptersKey,
  clipKey,
  clipRankKey,
  creatorPk,
  type Key,
  uploadPartsKey,
  videoKey,
} from "@/db/keys";
import type { QueryStats } from "@/db/table";
import { singleUploadVideo } from "@/db/testing/single-upload-video";
import { clipIdFor, createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { testTable } from "../../../dev/test/runtime";
import { listClipsByScore, updateClipScore, upsertClipsForVideo } from "./clip-repo";
import {
  createVideo,
  deleteVideoItems,
  findLastUploadPartAt,
  findRecordedUploadParts,
  findVideoById,
  holdVideoPipeline,
  listVideoIndex,
  listVideosByCreator,
  recordUploadPart,
  releaseVideoPipeline,
  updateVideo,
  updateVideoProgress,
  updateVideoStatus,
} from "./video-repo";

const table = testTable();

async function exists(key: Key): Promise<boolean> {
  const output = await table.documentClient.send(
    new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }),
  );
  return output.Item !== undefined;
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "ok";
  } catch (error) {
    return error instanceof AppError ? error.code : `error: ${(error as Error).message}`;
  }
}

describe("video repository", () => {
  it("creates a video in UPLOADING with its active-index entry, once", async () => {
    const creatorId = createId("creator");
    const input = singleUploadVideo(creatorId);
    const created = await createVideo({ table, video: input });
    expect(created).toMatchObject({ status: "UPLOADING", version: 1, progressPercent: 0, clipCount: 0 });
    expect(await findVideoById({ table, creatorId, videoId: input.videoId })).toEqual(created);
    expect(await codeOf(createVideo({ table, video: input }))).toBe("conflict");

    const shard = activeVideoShardOf(input.videoId);
    const entries = (await listVideoIndex({ table, shard })).active;
    expect(entries.find((entry) => entry.videoId === input.videoId)).toEqual({
      creatorId,
      videoId: input.videoId,
      status: "UPLOADING",
      updatedAt: created.updatedAt,
    });
  });

  it("another creator's video is not found in the caller's partition", async () => {
    const owner = createId("creator");
    const video = await createVideo({ table, video: singleUploadVideo(owner) });
    expect(
      await findVideoById({ table, creatorId: createId("creator"), videoId: video.videoId }),
    ).toBeUndefined();
  });

  it("changes status only from the expected one, keeping the index in step", async () => {
    const creatorId = createId("creator");
    const { videoId } = await createVideo({ table, video: singleUploadVideo(creatorId) });
    const uploaded = await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from: ["UPLOADING"],
      to: "UPLOADED",
      stage: "checking",
      set: { sourceSizeBytes: 1000, uploadedAt: new Date().toISOString() },
    });
    expect(uploaded).toMatchObject({
      status: "UPLOADED",
      stage: "checking",
      sourceSizeBytes: 1000,
      version: 2,
    });

    // Wrong current status: a conflict naming the real one, and nothing written.
    try {
      await updateVideoStatus({ table, creatorId, videoId, from: ["UPLOADING"], to: "UPLOADED" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("conflict");
      expect((error as AppError).message).toContain("UPLOADED");
    }
    expect((await findVideoById({ table, creatorId, videoId }))?.version).toBe(2);

    // A transition the lifecycle does not allow is a programming error.
    await expect(
      updateVideoStatus({ table, creatorId, videoId, from: ["UPLOADED"], to: "READY" }),
    ).rejects.toThrow(/cannot go/);
    // A missing video is not found.
    expect(
      await codeOf(
        updateVideoStatus({ table, creatorId, videoId: createId("video"), from: ["UPLOADED"], to: "QUEUED" }),
      ),
    ).toBe("not_found");

    await updateVideoStatus({ table, creatorId, videoId, from: ["UPLOADED"], to: "QUEUED" });
    expect(
      (await listVideoIndex({ table, shard: activeVideoShardOf(videoId) })).active.find(
        (e) => e.videoId === videoId,
      )?.status,
    ).toBe("QUEUED");

    const failed = await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from: ["QUEUED", "ANALYZING"],
      to: "FAILED",
      failureReason: "This file has no video stream.",
    });
    expect(failed).toMatchObject({ status: "FAILED", failureReason: "This file has no video stream." });
    expect(await exists(activeVideoKey(videoId))).toBe(false);

    // A retry puts it back in the index.
    await updateVideoStatus({ table, creatorId, videoId, from: ["FAILED"], to: "QUEUED" });
    expect(await exists(activeVideoKey(videoId))).toBe(true);
    expect((await findVideoById({ table, creatorId, videoId }))?.failureReason).toBeNull();
  });

  it("reports progress within a status and refreshes updatedAt on video and index", async () => {
    const creatorId = createId("creator");
    const created = await createVideo({
      table,
      video: singleUploadVideo(creatorId),
      now: new Date(Date.now() - 60_000),
    });
    const { videoId } = created;
    await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from: ["UPLOADING"],
      to: "UPLOADED",
      now: new Date(Date.now() - 50_000),
    });
    await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from: ["UPLOADED"],
      to: "QUEUED",
      now: new Date(Date.now() - 40_000),
    });
    await updateVideoStatus({
      table,
      creatorId,
      videoId,
      from: ["QUEUED"],
      to: "ANALYZING",
      now: new Date(Date.now() - 30_000),
    });
    await updateVideoProgress({
      table,
      creatorId,
      videoId,
      status: "ANALYZING",
      stage: "signals",
      progressPercent: 42.25,
    });
    const video = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(video).toMatchObject({ stage: "signals", progressPercent: 42.3 });
    expect(Date.parse(video?.updatedAt ?? "")).toBeGreaterThan(Date.now() - 10_000);
    const entry = (await listVideoIndex({ table, shard: activeVideoShardOf(videoId) })).active.find(
      (e) => e.videoId === videoId,
    );
    expect(entry?.updatedAt).toBe(video?.updatedAt);

    expect(
      await codeOf(
        updateVideoProgress({ table, creatorId, videoId, status: "RENDERING", progressPercent: 1 }),
      ),
    ).toBe("conflict");
  });

  it("refuses an edit based on a stale version", async () => {
    const creatorId = createId("creator");
    const { videoId } = await createVideo({ table, video: singleUploadVideo(creatorId) });
    const edited = await updateVideo({
      table,
      creatorId,
      videoId,
      expectedVersion: 1,
      set: { filename: "renamed.mp4" },
    });
    expect(edited).toMatchObject({ filename: "renamed.mp4", version: 2 });
    expect(
      await codeOf(
        updateVideo({ table, creatorId, videoId, expectedVersion: 1, set: { filename: "x.mp4" } }),
      ),
    ).toBe("conflict");
    expect(
      await codeOf(updateVideo({ table, creatorId, videoId: createId("video"), set: { filename: "x.mp4" } })),
    ).toBe("not_found");
  });

  it("holds a video's pipeline for one run at a time, until let go or lapsed, without touching what the sweep reads", async () => {
    const creatorId = createId("creator");
    const { videoId } = await createVideo({ table, video: singleUploadVideo(creatorId) });
    const ids = { table, creatorId, videoId };
    const at = (seconds: number) => new Date(Date.UTC(2026, 11, 3, 12, 0, seconds));
    // Only while the pipeline works on it.
    expect(await holdVideoPipeline({ ...ids, runId: "run-a", holdMs: 10_000, now: at(0) })).toEqual({
      kind: "not-in-progress",
    });
    await updateVideoStatus({ ...ids, from: ["UPLOADING"], to: "UPLOADED" });
    await updateVideoStatus({ ...ids, from: ["UPLOADED"], to: "QUEUED" });
    const analyzing = await updateVideoStatus({ ...ids, from: ["QUEUED"], to: "ANALYZING" });
    // As a video stored before holds were kept has it: no hold attributes at all.
    await table.documentClient.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: videoKey(creatorId, videoId),
        UpdateExpression: "REMOVE pipelineRunId, pipelineHeldUntil",
      }),
    );

    expect(await holdVideoPipeline({ ...ids, runId: "run-a", holdMs: 10_000, now: at(0) })).toEqual({
      kind: "held",
    });
    // Another run is told until when; the same run renews.
    expect(await holdVideoPipeline({ ...ids, runId: "run-b", holdMs: 10_000, now: at(5) })).toEqual({
      kind: "held-elsewhere",
      heldUntil: at(10).toISOString(),
    });
    expect(await holdVideoPipeline({ ...ids, runId: "run-a", holdMs: 10_000, now: at(8) })).toEqual({
      kind: "held",
    });
    expect(await holdVideoPipeline({ ...ids, runId: "run-b", holdMs: 10_000, now: at(12) })).toMatchObject({
      kind: "held-elsewhere",
      heldUntil: at(18).toISOString(),
    });
    // Lapsed unrenewed (its worker died): taken by the next run. The lapsed run lets go of nothing.
    expect(await holdVideoPipeline({ ...ids, runId: "run-b", holdMs: 10_000, now: at(19) })).toEqual({
      kind: "held",
    });
    await releaseVideoPipeline({ ...ids, runId: "run-a" });
    expect(await findVideoById({ ...ids, consistent: true })).toMatchObject({
      pipelineRunId: "run-b",
      pipelineHeldUntil: at(29).toISOString(),
      // Bookkeeping, not a change: the sweep still sees when the video last moved.
      version: analyzing.version,
      updatedAt: analyzing.updatedAt,
    });
    // Let go: the next run need not wait for it to lapse.
    await releaseVideoPipeline({ ...ids, runId: "run-b" });
    expect(await holdVideoPipeline({ ...ids, runId: "run-c", holdMs: 10_000, now: at(20) })).toEqual({
      kind: "held",
    });
    await updateVideoStatus({ ...ids, from: ["ANALYZING"], to: "RENDERING" });
    expect(await holdVideoPipeline({ ...ids, runId: "run-d", holdMs: 10_000, now: at(21) })).toMatchObject({
      kind: "held-elsewhere",
    });
    await updateVideoStatus({ ...ids, from: ["RENDERING"], to: "READY" });
    expect(await holdVideoPipeline({ ...ids, runId: "run-c", holdMs: 10_000, now: at(22) })).toEqual({
      kind: "not-in-progress",
    });
    await deleteVideoItems({ ...ids, emptyFolderAfter: at(60) });
    expect(await holdVideoPipeline({ ...ids, runId: "run-c", holdMs: 10_000, now: at(23) })).toEqual({
      kind: "not-in-progress",
    });
    await releaseVideoPipeline({ ...ids, runId: "run-c" });
    expect(await exists(videoKey(creatorId, videoId))).toBe(false);
  });

  it("lists a creator's videos newest first with one Query per page that reads nothing it throws away", async () => {
    const creatorId = createId("creator");
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      const video = singleUploadVideo(creatorId, {
        uploadKind: "multipart",
        uploadId: `upload-${index}`,
        partSizeBytes: 5 * 1024 * 1024,
        partCount: 2,
      });
      await createVideo({ table, video });
      ids.push(video.videoId);
      // Items of the same videos that sort near them must not be read by the list.
      await table.documentClient.send(
        new PutCommand({
          TableName: table.tableName,
          Item: { ...chaptersKey(creatorId, video.videoId), type: "Chapters", chapters: [] },
        }),
      );
    }
    const stats: QueryStats[] = [];
    const first = await listVideosByCreator({ table, creatorId, limit: 3, onStats: (s) => stats.push(s) });
    expect(first.items.map((video) => video.videoId)).toEqual(ids.slice().reverse().slice(0, 3));
    const second = await listVideosByCreator({
      table,
      creatorId,
      limit: 3,
      cursor: first.nextCursor,
      onStats: (s) => stats.push(s),
    });
    expect(second.items.map((video) => video.videoId)).toEqual(ids.slice().reverse().slice(3));
    expect(stats).toHaveLength(2);
    for (const stat of stats) expect(stat.scannedCount).toBe(stat.count);

    // A cursor from another creator's listing is refused, never used.
    const other = createId("creator");
    expect(
      await codeOf(listVideosByCreator({ table, creatorId: other, limit: 3, cursor: first.nextCursor })),
    ).toBe("bad_request");
  });

  it("records reported upload parts for the open upload only", async () => {
    const creatorId = createId("creator");
    const video = singleUploadVideo(creatorId, {
      uploadKind: "multipart",
      uploadId: "u-1",
      partSizeBytes: 5 << 20,
      partCount: 3,
    });
    await createVideo({ table, video });
    const { videoId } = video;
    expect(await findLastUploadPartAt({ table, creatorId, videoId })).toBeNull();
    await recordUploadPart({ table, creatorId, videoId, uploadId: "u-1", partNumber: 2, etag: "bbb" });
    await recordUploadPart({ table, creatorId, videoId, uploadId: "u-1", partNumber: 1, etag: "aaa" });
    await recordUploadPart({ table, creatorId, videoId, uploadId: "u-1", partNumber: 2, etag: "ccc" });
    expect(await findRecordedUploadParts({ table, creatorId, videoId, uploadId: "u-1" })).toEqual([
      { partNumber: 1, etag: "aaa" },
      { partNumber: 2, etag: "ccc" },
    ]);
    expect(await findLastUploadPartAt({ table, creatorId, videoId })).not.toBeNull();
    expect(
      await codeOf(
        recordUploadPart({ table, creatorId, videoId, uploadId: "other", partNumber: 3, etag: "d" }),
      ),
    ).toBe("conflict");
    expect(await findRecordedUploadParts({ table, creatorId, videoId, uploadId: "other" })).toEqual([]);
  });

  it("deletes a video with its clips, rank items, chapters, parts and index entry, and only those", async () => {
    const creatorId = createId("creator");
    const video = singleUploadVideo(creatorId, {
      uploadKind: "multipart",
      uploadId: "u-9",
      partSizeBytes: 5 << 20,
      partCount: 2,
    });
    const neighbour = singleUploadVideo(creatorId);
    await createVideo({ table, video });
    await createVideo({ table, video: neighbour });
    const { videoId } = video;
    const keys: Key[] = [videoKey(creatorId, videoId), uploadPartsKey(creatorId, videoId)];
    const put = async (key: Key, attributes: Record<string, unknown>) => {
      await table.documentClient.send(
        new PutCommand({ TableName: table.tableName, Item: { ...key, ...attributes } }),
      );
      keys.push(key);
    };
    await put(chaptersKey(creatorId, videoId), { type: "Chapters", chapters: [] });
    for (const [ordinal, score] of [
      [0, 91],
      [1, 40],
      [2, 7],
    ] as const) {
      const clipId = clipIdFor(videoId, ordinal);
      await put(clipKey(creatorId, clipId), { type: "Clip", clipId, score });
      await put(clipRankKey(creatorId, score, clipId), { type: "ClipRank", clipId, score });
    }
    const neighbourClip = clipIdFor(neighbour.videoId, 0);
    await table.documentClient.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...clipKey(creatorId, neighbourClip), type: "Clip", clipId: neighbourClip, score: 50 },
      }),
    );
    for (const key of keys) expect(await exists(key)).toBe(true);

    const emptyFolderAfter = new Date(Date.now() + 3_900_000);
    await deleteVideoItems({ table, creatorId, videoId, emptyFolderAfter });
    for (const key of keys) expect(await exists(key), JSON.stringify(key)).toBe(false);
    expect(await exists(videoKey(creatorId, neighbour.videoId))).toBe(true);
    expect(await exists(clipKey(creatorId, neighbourClip))).toBe(true);
    // Its index entry now says when to look at its folder once more.
    const index = await listVideoIndex({ table, shard: activeVideoShardOf(videoId) });
    expect(index.active.find((entry) => entry.videoId === videoId)).toBeUndefined();
    expect(index.deleted.find((entry) => entry.videoId === videoId)).toEqual({
      creatorId,
      videoId,
      emptyFolderAfter: emptyFolderAfter.toISOString(),
    });
    // Repeatable.
    await deleteVideoItems({ table, creatorId, videoId, emptyFolderAfter });
  });
  it("deletes each clip with the rank item of its current score when a render re-scores it during the delete", async () => {
    const creatorId = createId("creator");
    const video = singleUploadVideo(creatorId);
    const { videoId } = await createVideo({ table, video });
    const { clips } = await upsertClipsForVideo({
      table,
      creatorId,
      videoId,
      videoTitle: "talk.mp4",
      moments: [80, 55].map((score, ordinal) => ({
        ordinal,
        startSeconds: ordinal * 60,
        endSeconds: ordinal * 60 + 20,
        score,
        subscores: { hook: score, audioEnergy: 50, visualDynamics: 40, speech: 30, chat: null },
        reasons: [],
        title: `Moment ${ordinal}`,
        hookLine: null,
        platformCopy: null,
      })),
    });
    const rescored: string[] = [];
    await deleteVideoItems({
      table,
      creatorId,
      videoId,
      emptyFolderAfter: new Date(),
      // Each clip's render job re-scores it (moving its rank item) just after the delete read it.
      afterClipRead: async ({ clipId }) => {
        if (rescored.includes(clipId)) return;
        rescored.push(clipId);
        const clip = clips.find((candidate) => candidate.clipId === clipId)!;
        await updateClipScore({
          table,
          creatorId,
          clipId,
          revision: clip.revision,
          scored: { score: clip.score + 10, subscores: clip.subscores, reasons: clip.reasons },
        });
      },
    });
    expect(rescored).toHaveLength(2);
    const ranks = await table.documentClient.send(
      new QueryCommand({
        TableName: table.tableName,
        KeyConditionExpression: "PK = :pk AND begins_with(SK, :prefix)",
        ExpressionAttributeValues: { ":pk": creatorPk(creatorId), ":prefix": CLIP_RANK_SK_PREFIX },
        ConsistentRead: true,
      }),
    );
    expect(ranks.Items?.map((item) => item.SK)).toEqual([]);
    for (const clip of clips) {
      expect(await exists(clipKey(creatorId, clip.clipId))).toBe(false);
      expect(await exists(activeRenderKey(clip.clipId))).toBe(false);
    }
    expect(await listClipsByScore({ table, creatorId, limit: 10 })).toEqual({ items: [], nextCursor: null });
    expect(await exists(videoKey(creatorId, videoId))).toBe(false);
  });
});
