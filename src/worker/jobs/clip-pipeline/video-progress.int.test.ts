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

  it("a job picking up a lost one's video does not move its bar back, until the status changes", async () => {
    const creatorId = createId("creator");
    const video = singleUploadVideo(creatorId);
    const { videoId } = video;
    await createVideo({ table, video });
    for (const [from, to] of [
      ["UPLOADING", "UPLOADED"],
      ["UPLOADED", "QUEUED"],
      ["QUEUED", "ANALYZING"],
    ] as const) {
      await updateVideoStatus({ table, creatorId, videoId, from: [from], to });
    }
    const percentNow = async () =>
      (await findVideoById({ table, creatorId, videoId, consistent: true }))?.progressPercent;
    const lost = createVideoProgress({ table, creatorId, videoId, status: "ANALYZING" });
    await lost.stage("Finding the best moments", 76);

    const resumed = createVideoProgress({
      table,
      creatorId,
      videoId,
      status: "ANALYZING",
      resumedFromPercent: 76,
      minIntervalMs: 0,
    });
    await resumed.stage("Measuring sound and motion", 20);
    expect(await percentNow()).toBe(76);
    resumed.tick(80);
    await resumed.settle();
    expect(await percentNow()).toBe(80);

    await updateVideoStatus({ table, creatorId, videoId, from: ["ANALYZING"], to: "RENDERING" });
    resumed.setStatus("RENDERING");
    await resumed.stage("Rendering clip 1 of 3", 10);
    expect(await percentNow()).toBe(10);
  });
});
