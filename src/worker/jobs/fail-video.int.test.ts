import { describe, expect, it } from "vitest";
import { findVideoById } from "@/db/repos/video-repo";
import { createId } from "@/lib/ids";
import { tableOf } from "@/server/runtime";
import { recordUploadedVideo } from "@/worker/testing/create-queued-test-video";
import { createTestCreator, emailsTo } from "@/worker/testing/creator-emails";
import { testRuntime } from "../../../dev/test/runtime";
import { failVideo } from "./fail-video";

const runtime = testRuntime();
const table = tableOf(runtime);

describe("failVideo", () => {
  it("emails the creator once when two failures race: only the one that failed the video", async () => {
    const creator = await createTestCreator(runtime);
    const video = await recordUploadedVideo({
      table,
      creatorId: creator.creatorId,
      videoId: createId("video"),
      filename: "talk.mp4",
      sizeBytes: 1024,
    });
    const failWith = (reason: string) =>
      failVideo({ runtime, video, from: ["UPLOADED"], reason, log: () => {} });
    // Its check refusing the file as a redelivered copy of the job gives up on it, say. Settled,
    // not all: a write that loses outright (a transaction conflict) throws, and its job retries.
    await Promise.allSettled([
      failWith("The file is empty."),
      failWith("We could not check this file: It died."),
    ]);

    const failed = await findVideoById({
      table,
      creatorId: creator.creatorId,
      videoId: video.videoId,
      consistent: true,
    });
    expect(failed?.status).toBe("FAILED");
    const emails = await emailsTo(runtime, creator.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.text).toContain(failed?.failureReason);
  });
});
