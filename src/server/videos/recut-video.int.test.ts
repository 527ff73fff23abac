import { beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { findVideoById } from "@/db/repos/video-repo";
import { testProbe } from "@/engine/testing/test-probe";
import { createId } from "@/lib/ids";
import { createSignedInCreator } from "@/server/auth/testing/create-signed-in-creator";
import { getRuntime, tableOf } from "@/server/runtime";
import { recordQueuedVideo, recordVideoReady } from "@/worker/testing/create-queued-test-video";
import { provisionResources } from "../../../dev/provision";
import { RecutVideoBody, recutVideo } from "./recut-video";

const runtime = getRuntime();
const table = tableOf(runtime);
let creatorId: string;

beforeAll(async () => {
  const { clients, config } = runtime;
  await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  ({ creatorId } = await createSignedInCreator({ runtime }));
});

async function readyVideo() {
  const videoId = createId("video");
  const queued = await recordQueuedVideo({
    table,
    creatorId,
    videoId,
    filename: "talk.mp4",
    probe: testProbe(),
    clipOptions: { count: 2, minSeconds: 20, maxSeconds: 30 },
  });
  return recordVideoReady({ table, video: queued });
}

describe("recutVideo", () => {
  it("changes only the options the request names; the others stay as the video had them", async () => {
    const { videoId } = await readyVideo();
    const body = RecutVideoBody.parse({ clipOptions: { count: 3 } });
    const { video } = await recutVideo({ runtime, creatorId, videoId, body });
    expect(video.clipOptions).toEqual({ count: 3, minSeconds: 20, maxSeconds: 30 });
    const stored = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(stored?.clipOptions).toEqual({ count: 3, minSeconds: 20, maxSeconds: 30 });
    expect(stored?.status).toBe("QUEUED");
  });

  it("refuses a change that leaves the options impossible, and one that changes nothing, keeping the video as it was", async () => {
    const { videoId } = await readyVideo();
    // 40 s at least, with the stored 30 s at most.
    const body = RecutVideoBody.parse({ clipOptions: { minSeconds: 40 } });
    await expect(recutVideo({ runtime, creatorId, videoId, body })).rejects.toBeInstanceOf(ZodError);
    const stored = await findVideoById({ table, creatorId, videoId, consistent: true });
    expect(stored).toMatchObject({
      status: "READY",
      clipOptions: { count: 2, minSeconds: 20, maxSeconds: 30 },
    });
    expect(RecutVideoBody.safeParse({ clipOptions: {} }).success).toBe(false);
  });
});
