import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { makePlantedMinute, signInAsNewCreator, waitForUploadStored } from "./support/uploads";
import "./support/provided-context";

const appUrl = inject("e2eAppUrl");
const outboxPath = inject("e2eOutboxPath");

let browser: TestBrowser;
let directory: string;
let videoId: string | null;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-e2e-video-page-"));
  // A minute with planted moments: a few clips, the page taller than the window.
  const video = path.join(directory, "talk.mp4");
  [browser] = await Promise.all([launchBrowser(), makePlantedMinute(video)]);
  const page = await browser.context.newPage();
  await signInAsNewCreator(page, { appUrl, outboxPath, email: `video-page-${randomUUID()}@example.test` });
  await page.goto(`${appUrl}/videos`);
  await page.getByLabel("Choose files").setInputFiles(video);
  const row = page.getByTestId("video-row").filter({ hasText: "talk.mp4" });
  await row.waitFor();
  videoId = await row.getAttribute("data-video-id");
  await waitForUploadStored(page, "talk.mp4");
  // waitForVideoReady's expect.poll only runs inside a test.
  const deadline = Date.now() + 150_000;
  while ((await videoStatus(page)) !== "READY") {
    if (Date.now() > deadline) throw new Error(`${videoId} was not ready after 150 s`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  await page.close();
});

async function videoStatus(page: Page): Promise<string> {
  const response = await page.request.get(`${appUrl}/api/videos/${videoId}`);
  return ((await response.json()) as { video: { status: string } }).video.status;
}

afterAll(async () => {
  await browser?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/**
 * The ready video's page (the same signed-in browser throughout), once it answers: its source
 * player loaded, and React hydrated — the timeline follows the player — so that clicks and keys
 * reach their handlers rather than the server's HTML.
 */
async function openVideoPage(): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(`${appUrl}/videos/${videoId}`);
  const player = page.getByLabel("Source video");
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.readyState)).toBeGreaterThan(0);
  const timeline = page.getByRole("slider", { name: /^Interest timeline/ });
  await expect
    .poll(async () => {
      await player.evaluate((video: HTMLVideoElement) => {
        video.currentTime = 2;
      });
      return timeline.getAttribute("aria-valuenow");
    })
    .toBe("2");
  return page;
}

/** Waits until a smooth scroll has ended: the page has not moved for a third of a second. */
async function waitForScrollToSettle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let lastY = Number.NaN;
        let stillFrames = 0;
        const check = () => {
          stillFrames = window.scrollY === lastY ? stillFrames + 1 : 0;
          lastY = window.scrollY;
          if (stillFrames >= 20) resolve();
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );
}

/** Where the source player is, against the sticky header's bottom and the window's. */
async function playerPlacement(page: Page) {
  return page.evaluate(() => {
    const player = document.querySelector("video[aria-label='Source video']")!.getBoundingClientRect();
    const headerBottom = document.querySelector("header")!.getBoundingClientRect().bottom;
    return {
      wholeBelowHeader: player.top >= headerBottom,
      wholeInWindow: player.bottom <= window.innerHeight,
      top: Math.round(player.top),
      headerBottom: Math.round(headerBottom),
    };
  });
}

const firstCard = (page: Page): Locator => page.locator("article[id^='clip-']").first();

describe("a ready video's page in Chromium", () => {
  it("keeps the whole source player in view, clear of the sticky header, when a clip's time or a timeline marker plays it", async () => {
    const page = await openVideoPage();
    const player = page.getByLabel("Source video");
    const at = () => player.evaluate((video: HTMLVideoElement) => video.currentTime);

    // From the bottom of the page, with the player scrolled away above.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const card = firstCard(page);
    await card.getByRole("button", { name: /: where this clip starts$/ }).click();
    await waitForScrollToSettle(page);
    expect(await playerPlacement(page)).toMatchObject({ wholeBelowHeader: true, wholeInWindow: true });

    // A marker on the timeline plays its clip from its start, where the player is to be seen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await player.evaluate((video: HTMLVideoElement) => {
      video.pause();
      video.currentTime = video.duration - 1;
    });
    const marker = page.getByRole("button", { name: /^Clip 1, score \d+, from / });
    const markerStart = /from ([\d:]+)$/.exec((await marker.getAttribute("aria-label")) ?? "")?.[1] ?? "";
    const [minutes = 0, seconds = 0] = markerStart.split(":").map(Number);
    await marker.click();
    await waitForScrollToSettle(page);
    expect(await playerPlacement(page)).toMatchObject({ wholeBelowHeader: true, wholeInWindow: true });
    await expect.poll(at).toSatisfy((now: number) => now >= minutes * 60 + seconds - 1);
    expect(await at()).toBeLessThan(minutes * 60 + seconds + 5);

    // On a phone the header is taller (the navigation takes a row of its own): still clear of it.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await card.getByRole("button", { name: /: where this clip starts$/ }).click();
    await waitForScrollToSettle(page);
    expect(await playerPlacement(page)).toMatchObject({ wholeBelowHeader: true, wholeInWindow: true });
    await page.close();
  });

  it("closes the “Other clips…” popover and the account menu on Escape (focus back on what opened them) and on a click outside", async () => {
    const page = await openVideoPage();
    const focusedText = () => page.evaluate(() => document.activeElement?.textContent?.trim());
    const focusedLabel = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    const outside = page.getByRole("heading", { level: 1 });

    /** Opened, it closes on Escape (the focus back on what opened it) and on a click outside. */
    const closesAsPopoversDo = async (
      opener: Locator,
      inside: Locator,
      focusedOpener: () => Promise<string | null | undefined>,
      openerName: string,
    ) => {
      await opener.click();
      await inside.waitFor();
      await page.keyboard.press("Escape");
      await inside.waitFor({ state: "hidden" });
      expect(await focusedOpener()).toBe(openerName);
      await opener.click();
      await inside.waitFor();
      await outside.click();
      await inside.waitFor({ state: "hidden" });
    };

    const otherClips = page.getByText("Other clips…");
    const findAgain = page.getByRole("button", { name: "Find clips again" });
    await closesAsPopoversDo(otherClips, findAgain, focusedText, "Other clips…");
    // Cancel goes with the popover; the focus goes back to what opened it, as on Escape.
    await otherClips.click();
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await findAgain.waitFor({ state: "hidden" });
    expect(await focusedText()).toBe("Other clips…");

    const accountMenu = page.getByLabel("Account menu");
    const menu = page.locator("details").filter({ has: accountMenu });
    const signOut = menu.getByRole("button", { name: "Sign out", exact: true });
    await closesAsPopoversDo(accountMenu, signOut, focusedLabel, "Account menu");

    // The menu lives in the layout, which stays as the app moves on: going to Settings closes it.
    await accountMenu.click();
    await menu.getByRole("link", { name: "Settings", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/settings");
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    await signOut.waitFor({ state: "hidden" });
    await page.close();
  });

  it("says so when “Other clips…” brings back the clips the video already had", async () => {
    const page = await openVideoPage();
    const notice = page.getByText("No other moments stood out; these are still this video's best clips.");
    // The same options as the first analysis: the same moments, so the same clips, come back.
    await page.getByText("Other clips…").click();
    await page.getByRole("button", { name: "Find clips again" }).click();
    await notice.waitFor({ timeout: 120_000 });
    // Said once: the request kept for the tab is gone, so a reload does not say it again.
    expect(
      await page.evaluate((id) => sessionStorage.getItem(`truss.other-clips.${id}`), videoId),
    ).toBeNull();
    await page.close();
  });

  it("has one tab stop for adding a subtitle file, the button, which still opens the file chooser", async () => {
    const page = await openVideoPage();
    // Waited for from the start: Playwright asks the browser to report file choosers only once
    // this is called, and a key pressed before the browser has heard that opens none it sees.
    const chooser = page.waitForEvent("filechooser", { timeout: 20_000 });
    const addSubtitles = page.getByRole("button", { name: "Add subtitle file" });
    await addSubtitles.focus();
    await page.keyboard.press("Shift+Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("type"))).not.toBe("file");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Add subtitle file");

    await page.keyboard.press("Enter");
    expect((await chooser).isMultiple()).toBe(false);
    await page.close();
  });

  it("offers the previous version's download, saying so, while a clip's new range renders", async () => {
    const page = await openVideoPage();
    const card = firstCard(page);
    await card.getByRole("link", { name: "Download", exact: true }).waitFor();
    await card.getByRole("button", { name: "Edit", exact: true }).click();
    await card.getByRole("button", { name: "Start 1 second later" }).click();
    await card.getByRole("button", { name: "Save and re-render" }).click();

    await card.getByRole("link", { name: "Download previous version", exact: true }).waitFor();
    await card.getByText(/^The download is the previous version \(\d+:\d\d–\d+:\d\d, \d+ s\)/).waitFor();
    expect(await card.getByRole("link", { name: "Download", exact: true }).count()).toBe(0);

    // Once the new range is rendered, Download is the clip as it now is.
    await card.getByRole("link", { name: "Download", exact: true }).waitFor({ timeout: 120_000 });
    expect(await card.getByText("previous version").count()).toBe(0);
    await page.close();
  });
});
