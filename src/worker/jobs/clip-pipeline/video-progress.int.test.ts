import { describe, expect, it } from "vitest";
import { createVideo, findVideoById, updateVideoStatus } from "@/db/repos/video-repo";
import { singleUploadVideo } from "@/db/testing/single-upload-video";
import { createId } from "@/lib/ids";
import { tableOf } from "@/server/runtime";
import { testRuntime } from "../../../../dev/test/runtime";
import { createVideoProgress } from "./video-progress";

const table = tableOf(testRuntime());

describe("createVideoProgress", () => {
  it("keeps reporting a step that reports nothing of its own, so the sweep sees it alive", async () => {
    const creatorId = createId("creator");
    const video = singleUploadVideo(creatorId);
    const { videoId } = video;
    await createVideo({ table, video, now: new Date(Date.now() - 60_000) });
    for (const [from, to] of [
      ["UPLOADING", "UPLOADED"],
      ["UPLOADED", "QUEUED"],
      ["QUEUED", "ANALYZING"],
    ] as const) {
      await updateVideoStatus({
        table,
        creatorId,
        videoId,
        from: [from],
        to,
        now: new Date(Date.now() - 60_000),
      });
    }
    const progress = createVideoProgress({
      table,
      creatorId,
      videoId,
      status: "ANALYZING",
      keepAliveMs: 100,
    });
    await progress.stage("Finding the best moments", 40);
    const afterStage =
      (await findVideoById({ table, creatorId, videoId, consistent: true }))?.updatedAt ?? "";

    const silentStep = new Promise((resolve) => setTimeout(() => resolve("moments"), 450));
    expect(await progress.keepAliveWhile(silentStep)).toBe("moments");
    await progress.settle();
    const afterStep = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(Date.parse(afterStep?.updatedAt ?? "") - Date.parse(afterStage)).toBeGreaterThanOrEqual(300);
    expect(afterStep?.stage).toBe("Finding the best moments");
    expect(afterStep?.progressPercent).toBe(40);

    // Once the step is over, the reports stop.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const later = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(later?.updatedAt).toBe(afterStep?.updatedAt);
  });
});
