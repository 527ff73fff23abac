import { beforeAll, describe, expect, it } from "vitest";
import { upsertClipsForVideo } from "@/db/repos/clip-repo";
import { standInMoments } from "@/db/testing/stand-in-moments";
import { testProbe } from "@/engine/testing/test-probe";
import { createId } from "@/lib/ids";
import { createSignedInCreator } from "@/server/auth/testing/create-signed-in-creator";
import { getRuntime, tableOf } from "@/server/runtime";
import { recordQueuedVideo, recordVideoReady } from "@/worker/testing/create-queued-test-video";
import { provisionResources } from "../../../dev/provision";
import { recutVideo } from "../videos/recut-video";
import { getVideoStudio } from "./get-video-studio";

/**
 * The video page's data while a ready video is analysed again for other clips: its clips and
 * source stay on the page (it went empty until the new renders began), while a video on its
 * first analysis has none to show.
 */
const runtime = getRuntime();
const table = tableOf(runtime);
let creatorId: string;

beforeAll(async () => {
  const { clients, config } = runtime;
  await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  ({ creatorId } = await createSignedInCreator({ runtime }));
});

describe("getVideoStudio", () => {
  it("keeps a ready video's clips and source while it is queued and analysed again", async () => {
    const videoId = createId("video");
    const queued = await recordQueuedVideo({
      table,
      creatorId,
      videoId,
      filename: "talk.mp4",
      probe: testProbe(),
    });
    const firstRun = await getVideoStudio({ runtime, creatorId, videoId });
    expect(firstRun.clips).toEqual([]);

    await upsertClipsForVideo({
      table,
      creatorId,
      videoId,
      videoTitle: "talk.mp4",
      moments: standInMoments([70, 45]),
    });
    await recordVideoReady({ table, video: queued });
    await recutVideo({
      runtime,
      creatorId,
      videoId,
      body: { clipOptions: { count: 1, minSeconds: 15, maxSeconds: 30 } },
    });

    const again = await getVideoStudio({ runtime, creatorId, videoId });
    expect(again.video.status).toBe("QUEUED");
    expect(again.clips.map((clip) => clip.title)).toEqual(["Moment 1", "Moment 2"]);
    expect(again.sourceUrl).toMatch(/^https?:\/\//);
  });
});
