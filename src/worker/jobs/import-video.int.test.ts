import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findVideoById } from "@/db/repos/video-repo";
import { createId } from "@/lib/ids";
import { tableOf } from "@/server/runtime";
import { importVideoFromUrl } from "@/server/videos/import-video-from-url";
import { testJobContext } from "@/server/videos/testing/test-job-context";
import { makeTestVideo } from "@/server/videos/testing/test-media";
import {
  createTestQueue,
  deleteTestQueue,
  drainJobs,
  testQueueName,
} from "@/server/videos/testing/test-queue";
import { headObject } from "@/storage/head-object";
import { createTestCreator, emailsTo } from "@/worker/testing/creator-emails";
import { testRuntime } from "../../../dev/test/runtime";
import { failureReasonOf } from "../failure-reason";
import { PermanentJobError } from "../job-types";
import { importVideoJob } from "./import-video";

const queueName = testQueueName("import");
// Importing from this machine's own test server needs private addresses allowed.
const allowing = testRuntime({ TRUSS_QUEUE_NAME: queueName, IMPORT_ALLOW_PRIVATE_ADDRESSES: "true" });
const refusing = testRuntime({ TRUSS_QUEUE_NAME: queueName, IMPORT_ALLOW_PRIVATE_ADDRESSES: "false" });
const tiny = testRuntime({
  TRUSS_QUEUE_NAME: queueName,
  IMPORT_ALLOW_PRIVATE_ADDRESSES: "true",
  UPLOAD_MAX_BYTES: "4096",
});
// A bucket that does not exist: starting the multipart upload fails after the URL was opened.
const withoutBucket = testRuntime({
  TRUSS_QUEUE_NAME: queueName,
  IMPORT_ALLOW_PRIVATE_ADDRESSES: "true",
  TRUSS_BUCKET_NAME: "truss-test-no-such-bucket",
});
const table = tableOf(allowing);

let directory: string;
let videoPath: string;
let server: http.Server;
let baseUrl: string;
const requests: string[] = [];
/** Resolves when the server sees the connection of a held-open download end. */
let heldOpenClosed: Promise<void> | undefined;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-import-"));
  videoPath = path.join(directory, "talk.mp4");
  await makeTestVideo({ outputPath: videoPath, durationSeconds: 2 });
  await createTestQueue(allowing);
  server = http.createServer((request, response) => {
    requests.push(request.url ?? "");
    const url = new URL(request.url ?? "/", "http://x");
    if (url.pathname === "/media/talk.mp4") {
      response.writeHead(200, {
        "content-type": "video/mp4",
        "content-length": String(statSync(videoPath).size),
      });
      createReadStream(videoPath).pipe(response);
    } else if (url.pathname === "/chunked.mp4") {
      // No Content-Length: the size is only known by counting.
      response.writeHead(200, { "content-type": "application/octet-stream" });
      createReadStream(videoPath).pipe(response);
    } else if (url.pathname === "/held-open.mp4") {
      // A large file whose first bytes arrive, then the rest slowly: the connection stays open
      // until the reader lets go of it.
      response.writeHead(200, { "content-type": "video/mp4", "content-length": String(64 << 20) });
      response.write(Buffer.alloc(64 * 1024));
      heldOpenClosed = new Promise((resolve) => response.once("close", () => resolve()));
    } else if (url.pathname === "/share/42") {
      response.writeHead(302, { location: "/media/talk.mp4" });
      response.end();
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await deleteTestQueue(allowing).catch(() => {});
  rmSync(directory, { recursive: true, force: true });
});

describe("import-video", () => {
  it("fetches a URL (through a redirect) into the bucket and continues as ingest, to QUEUED", async () => {
    const creatorId = createId("creator");
    const { video } = await importVideoFromUrl({ runtime: allowing, creatorId, url: `${baseUrl}/share/42` });
    expect(video).toMatchObject({ status: "UPLOADING", origin: "import", filename: "42" });
    expect(await drainJobs(allowing)).toContainEqual(
      expect.objectContaining({ name: "import-video", payload: { creatorId, videoId: video.id } }),
    );

    await importVideoJob.run({ creatorId, videoId: video.id }, testJobContext(allowing).context);
    const stored = await findVideoById({ table, creatorId, videoId: video.id, consistent: true });
    expect(stored).toMatchObject({
      status: "QUEUED",
      uploadId: null,
      sourceSizeBytes: statSync(videoPath).size,
    });
    expect(stored?.probe).toMatchObject({ width: 320, height: 180, hasAudio: true });
    const head = await headObject({
      s3: allowing.clients.s3,
      bucket: allowing.config.aws.bucketName,
      key: stored!.sourceKey,
    });
    expect(head?.sizeBytes).toBe(readFileSync(videoPath).length);
    // Pinned as an upload is: the workers read only this object (pinned-source.ts).
    expect(stored?.sourceEtag).toBe(head?.etag);
    expect((await drainJobs(allowing)).map((job) => job.name)).toContain("analyze-video");

    // Redelivered after success: nothing is fetched again.
    const fetched = requests.length;
    await importVideoJob.run({ creatorId, videoId: video.id }, testJobContext(allowing).context);
    expect(requests.length).toBe(fetched);
  });

  it("imports a response of unknown length", async () => {
    const creatorId = createId("creator");
    const { video } = await importVideoFromUrl({
      runtime: allowing,
      creatorId,
      url: `${baseUrl}/chunked.mp4`,
    });
    await importVideoJob.run({ creatorId, videoId: video.id }, testJobContext(allowing).context);
    expect((await findVideoById({ table, creatorId, videoId: video.id }))?.status).toBe("QUEUED");
  });

  it("refuses a private address in the worker when configuration does not allow it", async () => {
    const creatorId = createId("creator");
    // Accepted by a deployment that allowed it, then run by a worker that does not.
    const { video } = await importVideoFromUrl({
      runtime: allowing,
      creatorId,
      url: `${baseUrl}/media/talk.mp4`,
    });
    const fetched = requests.length;
    await expect(
      importVideoJob.run({ creatorId, videoId: video.id }, testJobContext(refusing).context),
    ).rejects.toBeInstanceOf(PermanentJobError);
    expect(requests.length).toBe(fetched);
    const stored = await findVideoById({ table, creatorId, videoId: video.id });
    expect(stored?.status).toBe("FAILED");
    expect(stored?.failureReason).toMatch(/only public addresses can be imported/);
    expect(stored?.failureReason).not.toContain("127.0.0.1");
  });

  it("stops at the size limit, even without a Content-Length, and stores nothing", async () => {
    const creatorId = createId("creator");
    for (const url of [`${baseUrl}/media/talk.mp4`, `${baseUrl}/chunked.mp4`]) {
      const { video } = await importVideoFromUrl({ runtime: tiny, creatorId, url });
      await expect(
        importVideoJob.run({ creatorId, videoId: video.id }, testJobContext(tiny).context),
      ).rejects.toBeInstanceOf(PermanentJobError);
      const stored = await findVideoById({ table, creatorId, videoId: video.id });
      expect(stored?.status).toBe("FAILED");
      expect(stored?.failureReason).toMatch(/limit/);
      expect(
        await headObject({ s3: tiny.clients.s3, bucket: tiny.config.aws.bucketName, key: stored!.sourceKey }),
      ).toBeUndefined();
    }
  });

  it("closes the download's connection when starting the upload fails, not at the import's time limit", async () => {
    const creatorId = createId("creator");
    const { video } = await importVideoFromUrl({
      runtime: allowing,
      creatorId,
      url: `${baseUrl}/held-open.mp4`,
    });
    heldOpenClosed = undefined;
    await expect(
      importVideoJob.run({ creatorId, videoId: video.id }, testJobContext(withoutBucket).context),
    ).rejects.toThrow(/bucket/i);
    expect(heldOpenClosed).toBeDefined();
    const closedWithinMs = 5_000;
    const closed = await Promise.race([
      heldOpenClosed!.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), closedWithinMs)),
    ]);
    if (!closed) server.closeAllConnections();
    expect(closed).toBe(true);
  });

  it("a URL that answers 404 ends FAILED saying so", async () => {
    const creatorId = createId("creator");
    const { video } = await importVideoFromUrl({ runtime: allowing, creatorId, url: `${baseUrl}/gone.mp4` });
    await expect(
      importVideoJob.run({ creatorId, videoId: video.id }, testJobContext(allowing).context),
    ).rejects.toThrow("The URL answered 404 Not Found.");
    expect((await findVideoById({ table, creatorId, videoId: video.id }))?.failureReason).toBe(
      "The URL answered 404 Not Found.",
    );
  });

  it("emails the creator why an import failed when its job gives up (a host that cannot be found)", async () => {
    const creator = await createTestCreator(allowing);
    const { video } = await importVideoFromUrl({
      runtime: allowing,
      creatorId: creator.creatorId,
      url: "http://no-such-host.invalid/talk.mp4",
    });
    const payload = { creatorId: creator.creatorId, videoId: video.id };
    const { context } = testJobContext(allowing);
    // Retried as the network may recover; given up, as the consumer does, once attempts run out.
    const failure = await importVideoJob.run(payload, context).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String(failure)).toMatch(/could not be found/);
    await importVideoJob.onGiveUp!(payload, { ...context, isFinalAttempt: true }, failureReasonOf(failure));

    const failureReason = "The import failed: The host no-such-host.invalid could not be found.";
    expect(await findVideoById({ table, ...payload, consistent: true })).toMatchObject({
      status: "FAILED",
      failureReason,
    });
    const emails = await emailsTo(allowing, creator.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({
      subject: "Truss could not make clips from “talk.mp4”",
      text: expect.stringContaining(failureReason),
    });
  });

  it("sends no email to a creator who turned these emails off, and one to a creator who did not", async () => {
    for (const emailWhenClipsReady of [false, true]) {
      const creator = await createTestCreator(allowing, { emailWhenClipsReady });
      const { video } = await importVideoFromUrl({
        runtime: allowing,
        creatorId: creator.creatorId,
        url: `${baseUrl}/gone.mp4`,
      });
      const payload = { creatorId: creator.creatorId, videoId: video.id };
      await expect(importVideoJob.run(payload, testJobContext(allowing).context)).rejects.toBeInstanceOf(
        PermanentJobError,
      );
      const emails = await emailsTo(allowing, creator.email);
      expect(emails).toHaveLength(emailWhenClipsReady ? 1 : 0);
      if (emailWhenClipsReady) expect(emails[0]?.text).toContain("The URL answered 404 Not Found.");
    }
  });
});
