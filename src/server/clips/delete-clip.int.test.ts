import { beforeAll, describe, expect, it } from "vitest";
import {
  type Clip,
  deleteClip as deleteClipItems,
  listClipsByScore,
  listClipsByVideo,
  markClipRendered,
  upsertClipsForVideo,
} from "@/db/repos/clip-repo";
import {
  findVideoById,
  recordClipDeleted,
  updateVideo,
  updateVideoStatus,
  type Video,
} from "@/db/repos/video-repo";
import { standInRender } from "@/db/testing/stand-in-render";
import { testProbe } from "@/engine/testing/test-probe";
import { createId } from "@/lib/ids";
import { tableOf } from "@/server/runtime";
import { headObject } from "@/storage/head-object";
import { writeJsonObject } from "@/storage/object-io";
import { clipRenderObjectKey } from "@/storage/object-keys";
import { recordQueuedVideo, recordVideoReady } from "@/worker/testing/create-queued-test-video";
import { provisionResources } from "../../../dev/provision";
import { testRuntime, testTableName } from "../../../dev/test/runtime";
import { deleteClip } from "./delete-clip";

const runtime = testRuntime({ TRUSS_TABLE_NAME: testTableName("delete-clip") });
const table = tableOf(runtime);
const storage = { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName };

/** A video with two clips, the first rendered (stand-in objects), in the given status. */
async function videoWithClips(status: "QUEUED" | "READY"): Promise<{ video: Video; clips: Clip[] }> {
  const creatorId = createId("creator");
  let video = await recordQueuedVideo({
    table,
    creatorId,
    videoId: createId("video"),
    filename: "talk.mp4",
    probe: testProbe(),
  });
  const moment = (ordinal: number, startSeconds: number, score: number) => ({
    ordinal,
    startSeconds,
    endSeconds: startSeconds + 20,
    score,
    subscores: { hook: score, audioEnergy: score, visualDynamics: 20, speech: 50, chat: null },
    reasons: [],
    title: `Moment ${ordinal + 1}`,
    hookLine: null,
    platformCopy: null,
  });
  const { clips } = await upsertClipsForVideo({
    table,
    creatorId,
    videoId: video.videoId,
    videoTitle: video.filename,
    moments: [moment(0, 10, 81), moment(1, 50, 40)],
  });
  const first = clips[0]!;
  const keyOf = (kind: "video" | "thumbnail" | "preview") =>
    clipRenderObjectKey({ creatorId, videoId: video.videoId, clipId: first.clipId, revision: 0, kind });
  const keys = { videoKey: keyOf("video"), thumbnailKey: keyOf("thumbnail"), previewKey: keyOf("preview") };
  for (const key of Object.values(keys)) await writeJsonObject({ ...storage, key, value: { stand: "in" } });
  const rendered = await markClipRendered({
    table,
    creatorId,
    clipId: first.clipId,
    render: standInRender(keys, first),
  });
  if (status === "READY") video = await recordVideoReady({ table, video, set: { clipCount: clips.length } });
  else
    video = await updateVideo({ table, creatorId, videoId: video.videoId, set: { clipCount: clips.length } });
  return { video, clips: [rendered!.clip, clips[1]!] };
}

beforeAll(async () => {
  const { clients, config } = runtime;
  await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
});

describe("deleteClip", () => {
  it("removes a ready video's clip, its rank item and its render, and counts one clip fewer", async () => {
    const { video, clips } = await videoWithClips("READY");
    const { creatorId, videoId } = video;
    const [rendered, other] = clips as [Clip, Clip];

    await deleteClip({ runtime, creatorId, clipId: rendered.clipId });

    expect(
      (await listClipsByVideo({ table, creatorId, videoId, consistent: true })).map((c) => c.clipId),
    ).toEqual([other.clipId]);
    // The rank item went with it: "top clips" no longer lists it.
    const byScore = await listClipsByScore({ table, creatorId, limit: 10 });
    expect(byScore.items.map((c) => c.clipId)).toEqual([other.clipId]);
    for (const key of [
      rendered.render!.videoKey,
      rendered.render!.thumbnailKey,
      rendered.render!.previewKey,
    ]) {
      expect(await headObject({ ...storage, key })).toBeUndefined();
    }
    expect(await findVideoById({ table, creatorId, videoId, consistent: true })).toMatchObject({
      status: "READY",
      clipCount: 1,
    });

    // Asked again (a second tab): not found, and the count stays.
    await expect(deleteClip({ runtime, creatorId, clipId: rendered.clipId })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await findVideoById({ table, creatorId, videoId, consistent: true }))?.clipCount).toBe(1);
  });

  it("finds no clip of another creator's, and leaves it", async () => {
    const { video, clips } = await videoWithClips("READY");
    await expect(
      deleteClip({ runtime, creatorId: createId("creator"), clipId: clips[0]!.clipId }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(
      deleteClip({ runtime, creatorId: video.creatorId, clipId: "clip_nonsense" }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await listClipsByVideo({ table, ...video, consistent: true })).toHaveLength(2);
  });

  it("refuses while the video is being processed, whose job writes its clips", async () => {
    const { video, clips } = await videoWithClips("QUEUED");
    await expect(
      deleteClip({ runtime, creatorId: video.creatorId, clipId: clips[0]!.clipId }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: "Clips can be deleted once the video is ready; it is queued.",
    });
    expect(await listClipsByVideo({ table, ...video, consistent: true })).toHaveLength(2);
    expect(await headObject({ ...storage, key: clips[0]!.render!.videoKey })).toBeDefined();
  });

  it("does not delete once a request for other clips has started, even one landing after the check", async () => {
    const { video, clips } = await videoWithClips("READY");
    const { creatorId, videoId } = video;
    // The request lands between the delete's read and its write.
    await expect(
      deleteClipItems({
        table,
        creatorId,
        clipId: clips[0]!.clipId,
        whileVideoReady: { videoId },
        afterRead: async () => {
          await updateVideoStatus({ table, creatorId, videoId, from: ["READY"], to: "QUEUED" });
        },
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await listClipsByVideo({ table, creatorId, videoId, consistent: true })).toHaveLength(2);
    // The server function says why.
    await expect(deleteClip({ runtime, creatorId, clipId: clips[0]!.clipId })).rejects.toMatchObject({
      code: "conflict",
      message: "Clips can be deleted once the video is ready; it is queued.",
    });
  });

  it("leaves the count to the job once a request for other clips has started, and still remembers the range", async () => {
    const { video } = await videoWithClips("QUEUED");
    await recordClipDeleted({ table, ...video, range: { startSeconds: 10, endSeconds: 30 } });
    expect(await findVideoById({ table, ...video, consistent: true })).toMatchObject({
      clipCount: 2,
      deletedClipRanges: [{ startSeconds: 10, endSeconds: 30 }],
    });
  });
});
