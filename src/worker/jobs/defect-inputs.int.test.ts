import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listClipsByVideo } from "@/db/repos/clip-repo";
import { findVideoById } from "@/db/repos/video-repo";
import {
  createDefectFixtures,
  DEFECT_FIXTURE_NAMES,
  type DefectFixtures,
} from "@/engine/testing/defect-fixtures";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { tableOf } from "@/server/runtime";
import { testJobContext } from "@/server/videos/testing/test-job-context";
import {
  createTestQueue,
  deleteTestQueue,
  drainJobs,
  testQueueName,
} from "@/server/videos/testing/test-queue";
import type { JobPayload } from "@/worker/catalog";
import { failureReasonOf } from "@/worker/failure-reason";
import { type JobHandler, PermanentJobError } from "@/worker/job-types";
import { storeUploadedVideo } from "@/worker/testing/create-queued-test-video";
import { createTestCreator, emailsTo } from "@/worker/testing/creator-emails";
import { testRuntime } from "../../../dev/test/runtime";
import { analyzeVideoJob } from "./analyze-video";
import { ingestVideoJob } from "./ingest-video";

const runtime = testRuntime({ TRUSS_QUEUE_NAME: testQueueName("defect-inputs") });
const table = tableOf(runtime);

let fixtures: DefectFixtures;
let fixturesDirectory: string;
/** This test process's temporary directory (TMPDIR), so what the jobs leave there is theirs. */
let temporaryDirectory: string;
let previousTmpdir: string | undefined;

beforeAll(async () => {
  await createTestQueue(runtime);
  fixturesDirectory = await mkdtemp(path.join(os.tmpdir(), "truss-defect-inputs-"));
  fixtures = await createDefectFixtures({ binaries: resolveMediaBinaries(), directory: fixturesDirectory });
  temporaryDirectory = await mkdtemp(path.join(os.tmpdir(), "truss-defect-jobs-"));
  previousTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = temporaryDirectory;
});

afterAll(async () => {
  await deleteTestQueue(runtime);
  if (previousTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmpdir;
  await rm(fixturesDirectory, { recursive: true, force: true });
  await rm(temporaryDirectory, { recursive: true, force: true });
});

/**
 * Runs a job as the consumer does, once: a file that is what it is must end the job for good
 * (PermanentJobError, then the handler's onGiveUp marks the video FAILED with the reason), not
 * fail as if the network had, to be retried for minutes.
 */
async function runOnce<Name extends "ingest-video" | "analyze-video">(
  handler: JobHandler<Name>,
  payload: JobPayload<Name>,
): Promise<void> {
  const { context } = testJobContext(runtime);
  try {
    await handler.run(payload, context);
  } catch (error) {
    expect(error, String(error)).toBeInstanceOf(PermanentJobError);
    await handler.onGiveUp?.(payload, { ...context, isFinalAttempt: true }, failureReasonOf(error));
  }
}

/** How each ends; `either` where ffmpeg decodes what it can of a damaged file. */
const EXPECTED: Record<(typeof DEFECT_FIXTURE_NAMES)[number], "READY" | "FAILED" | "either"> = {
  "no-audio": "READY",
  "audio-only": "FAILED",
  vertical: "READY",
  rotated: "READY",
  "variable-frame-rate": "READY",
  // Under the shortest clip (3 s) there is nothing to clip.
  "one-second": "FAILED",
  "picture-ends-early": "READY",
  "no-duration": "READY",
  corrupt: "either",
  "not-a-video": "FAILED",
  truncated: "FAILED",
};

describe("defect inputs through the jobs (ingest, analysis, renders)", () => {
  it.each(DEFECT_FIXTURE_NAMES)(
    "%s ends READY with rendered clips or FAILED with a reason for a person, leaving no work files",
    async (name) => {
      const started = Date.now();
      const uploaded = await storeUploadedVideo({ runtime, filePath: fixtures[name] });
      const ref = { creatorId: uploaded.creatorId, videoId: uploaded.videoId };
      await runOnce(ingestVideoJob, ref);
      const ingested = await findVideoById({ table, ...ref, consistent: true });
      if (ingested?.status === "QUEUED") {
        expect(await drainJobs(runtime)).toEqual([
          expect.objectContaining({ name: "analyze-video", payload: ref }),
        ]);
        await runOnce(analyzeVideoJob, ref);
      }
      const video = await findVideoById({ table, ...ref, consistent: true });
      expect(["READY", "FAILED"]).toContain(video?.status);
      if (EXPECTED[name] !== "either") expect(video?.status, video?.failureReason ?? "").toBe(EXPECTED[name]);
      // Past its check, a video has a picture for the library: a frame, then its best clip's.
      if (ingested?.status === "QUEUED") expect(video?.thumbnailKey).toMatch(/\/(frame|thumbnail)\.jpg$/);
      if (video?.status === "FAILED") {
        // A sentence for a person: no stack, no ffmpeg option soup, no internal address.
        expect(video.failureReason).toMatch(/^[A-Z][^\n]{10,300}$/);
        expect(video.failureReason).not.toMatch(/https?:|file:|\/tmp\/|ffmpeg -/);
      } else {
        const clips = await listClipsByVideo({ table, ...ref, consistent: true });
        expect(clips.length).toBeGreaterThanOrEqual(1);
        for (const clip of clips)
          expect(clip).toMatchObject({ status: "READY", render: { width: 1080, height: 1920 } });
      }
      expect(await readdir(temporaryDirectory)).toEqual([]);
      expect(Date.now() - started).toBeLessThan(60_000);
    },
  );

  it.each(["not-a-video", "truncated"] as const)(
    "%s, refused at its check, emails the creator the reason once (the refusal, then the job given up)",
    async (name) => {
      const uploaded = await storeUploadedVideo({ runtime, filePath: fixtures[name] });
      const creator = await createTestCreator(runtime, { creatorId: uploaded.creatorId });
      const ref = { creatorId: uploaded.creatorId, videoId: uploaded.videoId };
      await runOnce(ingestVideoJob, ref);
      const video = await findVideoById({ table, ...ref, consistent: true });
      expect(video?.status).toBe("FAILED");
      const emails = await emailsTo(runtime, creator.email);
      expect(emails).toHaveLength(1);
      expect(emails[0]).toMatchObject({
        subject: `Truss could not make clips from “${uploaded.filename}”`,
        text: expect.stringContaining(video!.failureReason!),
      });
    },
  );
});
