import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { findFreePort } from "../../dev/services";
import { type Stack, startStack } from "../../dev/start";
import { generateSyntheticVideo, planSyntheticVideo } from "../../src/engine/testing/synthetic-video";
import { resolveMediaBinaries } from "../../src/media/ffmpeg-binaries";
import { waitForLinkInOutbox } from "./outbox";
import { openSignInLink } from "./sign-in";

/**
 * A stack of the upload tests' own (the shared one keeps the default 64 MB multipart
 * threshold): 5 MiB threshold and parts, so a file of a few tens of MB is a multipart upload.
 */
export async function startUploadStack(extraEnvironment: Record<string, string> = {}): Promise<{
  stack: Stack;
  appUrl: string;
  s3Origin: string;
  /** The last lines the web app and the worker printed (for failure messages). */
  logs: () => string;
  stop: () => Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "truss-e2e-uploads-"));
  const port = await findFreePort();
  const s3Port = await findFreePort();
  const appUrl = `http://localhost:${port}`;
  const logs: string[] = [];
  const environment = {
    ...process.env,
    TRUSS_DATA_DIR: dataDir,
    PORT: String(port),
    APP_URL: appUrl,
    TRUSS_DYNAMODB_PORT: String(await findFreePort()),
    TRUSS_S3_PORT: String(s3Port),
    TRUSS_SQS_PORT: String(await findFreePort()),
    AUTH_SECRET: "e2e-upload-tests-secret-0123456789abcdef",
    TRUSS_SERVICES: "embedded",
    SMTP_URL: "",
    UPLOAD_MULTIPART_THRESHOLD_BYTES: String(5 * 1024 * 1024),
    UPLOAD_PART_SIZE_BYTES: String(5 * 1024 * 1024),
    ...extraEnvironment,
  };
  let stack: Stack;
  try {
    stack = await startStack({
      environment,
      inMemory: true,
      log: (line) => {
        logs.push(line);
        if (logs.length > 300) logs.shift();
      },
    });
  } catch (error) {
    console.error(`[e2e uploads] the stack did not start. Last output:\n${logs.slice(-60).join("\n")}`);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    stack,
    appUrl,
    s3Origin: `http://localhost:${s3Port}`,
    logs: () => logs.join("\n"),
    stop: async () => {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs a new creator in through the magic link, as a person would. */
export async function signInAsNewCreator(
  page: Page,
  options: { appUrl: string; outboxPath: string; email: string },
) {
  // The browser may still hold an earlier test's session.
  await page.context().clearCookies();
  await page.goto(`${options.appUrl}/login`);
  await page.getByLabel("Email address").fill(options.email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
  const link = await waitForLinkInOutbox({ outboxPath: options.outboxPath, to: options.email });
  await openSignInLink(page, link);
  await page.waitForURL((url) => url.pathname === "/dashboard");
}

/** Limits the page's upload speed (Chrome DevTools Protocol), so progress can be watched. */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<void> {
  const session = await page.context().newCDPSession(page);
  await session.send("Network.enable");
  await session.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}

/** Part numbers of multipart PUTs the page sends to storage, in order. */
export function recordPartPuts(page: Page, s3Origin: string): number[] {
  const parts: number[] = [];
  page.on("request", (request) => {
    if (request.method() !== "PUT" || !request.url().startsWith(s3Origin)) return;
    const partNumber = new URL(request.url()).searchParams.get("partNumber");
    if (partNumber) parts.push(Number(partNumber));
  });
  return parts;
}

/**
 * Waits until the browser has stored the upload of `filename`: the page sends the bytes itself,
 * so leaving it before then stops the upload (the video stays UPLOADING).
 */
export async function waitForUploadStored(page: Page, filename: string, timeoutMs = 60_000): Promise<void> {
  await page
    .getByTestId("upload-row")
    .filter({ hasText: filename })
    .and(page.locator('[data-phase="done"]'))
    .waitFor({ timeout: timeoutMs });
}

/** Waits until the library's row for a video shows it past its upload: queued, or further on. */
export async function waitForRowPastUpload(page: Page, videoRow: Locator, timeoutMs = 60_000): Promise<void> {
  await videoRow
    .and(
      page.locator(
        '[data-status="QUEUED"], [data-status="ANALYZING"], [data-status="RENDERING"], [data-status="READY"]',
      ),
    )
    .waitFor({ timeout: timeoutMs });
}

/** Waits until the video's status, as the API reports it, is READY. */
export async function waitForVideoReady(
  page: Page,
  options: { appUrl: string; videoId: string | null; timeoutMs: number },
): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await page.request.get(`${options.appUrl}/api/videos/${options.videoId}`);
        return ((await response.json()) as { video: { status: string } }).video.status;
      },
      { timeout: options.timeoutMs, interval: 1_000 },
    )
    .toBe("READY");
}

/**
 * A minute of video with planted moments (loud bursts, cuts, motion), encoded fast: analysed,
 * it gives a few clips and a page taller than the window.
 */
export async function makePlantedMinute(outputPath: string): Promise<void> {
  await generateSyntheticVideo({
    binaries: resolveMediaBinaries(),
    outputPath,
    plan: planSyntheticVideo({ durationSeconds: 60 }),
    preset: "ultrafast",
  });
}
