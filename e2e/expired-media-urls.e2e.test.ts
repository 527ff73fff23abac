import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeTestVideo } from "../src/server/videos/testing/test-media";
import { launchBrowser, type TestBrowser } from "./support/browser";
import "./support/provided-context";
import { signInAsNewCreator, waitForVideoReady } from "./support/uploads";

const appUrl = inject("e2eAppUrl");
const outboxPath = inject("e2eOutboxPath");

let browser: TestBrowser;
let directory: string;
let sourceVideo: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-e2e-expiry-"));
  sourceVideo = path.join(directory, "keynote.mp4");
  // Film grain keeps it large (~30 MB), so the player holds only its start and a seek to the
  // end has to ask storage again.
  await makeTestVideo({
    outputPath: sourceVideo,
    durationSeconds: 20,
    width: 320,
    height: 180,
    crf: 16,
    noise: true,
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** `20260101T120000Z` → epoch ms. */
const amzDateMs = (amzDate: string) =>
  Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, "$1-$2-$3T$4:$5:$6Z"));

/** Storage's answer to a signed URL past its expiry. */
const refuseAsExpired = (route: Route) =>
  route.fulfill({
    status: 403,
    contentType: "application/xml",
    body: "<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>",
  });

/**
 * From now on storage refuses every URL signed before this moment, as S3 refuses expired ones:
 * the pages in front of the test are now older than their signed URLs live. URLs signed from
 * the next whole second on (X-Amz-Date counts seconds) pass. Returns the refused URLs.
 */
async function expireEverySignedUrlSoFar(...pages: Page[]): Promise<string[]> {
  const cutoffMs = Math.ceil((Date.now() + 1) / 1000) * 1000;
  // Refusing only once the cutoff has passed: a URL the app signs meanwhile is still valid.
  await new Promise((resolve) => setTimeout(resolve, cutoffMs - Date.now() + 50));
  const refused: string[] = [];
  for (const page of pages) {
    await page.route(
      (url) => {
        const signedAt = url.searchParams.get("X-Amz-Date");
        return signedAt !== null && amzDateMs(signedAt) < cutoffMs;
      },
      async (route) => {
        refused.push(route.request().url());
        await refuseAsExpired(route);
      },
    );
  }
  return refused;
}

/**
 * Keeps the page's thumbnails (JPEGs) from loading until `loadAfterExpiry`, as if they were
 * lazily loaded images still out of view: their requests then reach storage after their URLs
 * expired, and are refused, as a page left open and then scrolled would have them.
 */
async function holdThumbnails(page: Page) {
  const held: Route[] = [];
  let holding = true;
  await page.route(/\.jpg\?/, async (route) => {
    if (holding) held.push(route);
    else await route.fallback();
  });
  return {
    heldUrls: () => held.map((route) => route.request().url()),
    loadAfterExpiry: async () => {
      holding = false;
      await Promise.all(held.map(refuseAsExpired));
    },
  };
}

/** The picture an <img> or <video> shows, once it shows one: the URL it came from. */
const shownPicture = (element: HTMLImageElement | HTMLVideoElement) =>
  (element instanceof HTMLImageElement ? element.naturalWidth > 0 : element.readyState >= 2)
    ? element.currentSrc
    : null;

describe("a video page open longer than its signed URLs live, in Chromium", () => {
  it("still downloads clips and shows pictures first loaded late, and the source player carries on with a fresh URL instead of blaming the format", async () => {
    const page = await browser.context.newPage();
    await signInAsNewCreator(page, { appUrl, outboxPath, email: `expiry-${randomUUID()}@example.test` });
    await page.goto(`${appUrl}/videos`);
    await page.getByLabel("Choose files").setInputFiles(sourceVideo);
    const videoRow = page.getByTestId("video-row").filter({ hasText: "keynote.mp4" });
    await videoRow.waitFor({ timeout: 60_000 });
    const videoId = await videoRow.getAttribute("data-video-id");
    await waitForVideoReady(page, { appUrl, videoId, timeoutMs: 180_000 });

    // The videos list, loaded alongside, shows the video's thumbnail only after expiry too.
    const listPage = await browser.context.newPage();
    const listThumbnails = await holdThumbnails(listPage);
    // Not waiting for "load": that waits for the held pictures.
    await listPage.goto(`${appUrl}/videos`, { waitUntil: "domcontentloaded" });
    const listThumbnail = listPage.locator(`[data-testid='video-row'][data-video-id='${videoId}'] img`);
    await listThumbnail.waitFor({ state: "attached" });

    const clipThumbnails = await holdThumbnails(page);
    await page.goto(`${appUrl}/videos/${videoId}`, { waitUntil: "domcontentloaded" });
    const player = page.locator("video[preload='metadata']");
    await page.waitForFunction(
      () => (document.querySelector("video[preload='metadata']") as HTMLVideoElement | null)?.readyState,
    );
    const pageSourceUrl = await player.evaluate((video: HTMLVideoElement) => video.currentSrc);
    const refused = await expireEverySignedUrlSoFar(page, listPage);

    // Download: the link is followed long after the page loaded, and still saves the clip.
    const card = page.locator("article[id^='clip-']").first();
    const downloading = page.waitForEvent("download", { timeout: 30_000 });
    await card.getByRole("link", { name: "Download" }).click();
    const download = await downloading;
    expect(await download.failure()).toBeNull();
    expect(download.suggestedFilename()).toMatch(/^keynote-clip-\d+-.*\.mp4$/);
    const saved = readFileSync((await download.path())!);
    expect(saved.length).toBeGreaterThan(10_000);
    expect(saved.subarray(4, 8).toString("latin1")).toBe("ftyp");

    // The source player: a seek past what it holds meets the expired URL, and playback goes on
    // from there with a fresh one rather than a sentence about the file's format.
    await player.evaluate((video: HTMLVideoElement) => {
      video.currentTime = 18;
    });
    await expect
      .poll(() => player.evaluate((video: HTMLVideoElement) => video.currentSrc), { timeout: 30_000 })
      .not.toBe(pageSourceUrl);
    expect(refused).toContain(pageSourceUrl);
    await expect
      .poll(() =>
        player.evaluate((video: HTMLVideoElement) => ({
          loaded: video.readyState >= HTMLMediaElement.HAVE_METADATA,
          at: Math.round(video.currentTime),
          error: video.error?.code ?? null,
        })),
      )
      .toEqual({ loaded: true, at: 18, error: null });
    expect(await page.getByText("This browser cannot show the source file's video format.").count()).toBe(0);
    await page.getByText("Click to play from any moment").waitFor();

    // Pictures first shown after expiry: a clip's thumbnail, its animated preview on hover, and
    // the list's video thumbnail each show, from a fresh URL, instead of a broken image.
    const heldPageUrls = [...clipThumbnails.heldUrls(), ...listThumbnails.heldUrls()];
    await clipThumbnails.loadAfterExpiry();
    await listThumbnails.loadAfterExpiry();
    const clipPicture = card.getByRole("button", { name: /^Play “/ });
    await expect.poll(() => clipPicture.locator("img").first().evaluate(shownPicture)).toMatch(/\.jpg\?/);
    await clipPicture.hover();
    await expect
      .poll(() => clipPicture.locator("img, video").nth(1).evaluate(shownPicture), { timeout: 30_000 })
      .toMatch(/\.preview\./);
    await expect.poll(() => listThumbnail.evaluate(shownPicture)).toMatch(/thumbnail\.jpg\?/);
    const shown = [
      await clipPicture.locator("img").first().evaluate(shownPicture),
      await clipPicture.locator("img, video").nth(1).evaluate(shownPicture),
      await listThumbnail.evaluate(shownPicture),
    ];
    // The URLs the pages loaded with were refused; what shows was signed since.
    expect(heldPageUrls.some((url) => url.includes("/clips/"))).toBe(true);
    expect(heldPageUrls.some((url) => url.includes("thumbnail.jpg"))).toBe(true);
    expect(refused.some((url) => url.includes(".preview."))).toBe(true);
    for (const url of shown) {
      expect(heldPageUrls).not.toContain(url);
      expect(refused).not.toContain(url);
    }
    await listPage.close();
    await page.close();
  }, 360_000);
});
