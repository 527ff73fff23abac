import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { accessibilityViolations } from "./support/accessibility";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { waitForLinkInOutbox } from "./support/outbox";
import { makePlantedMinute, waitForUploadStored, waitForVideoReady } from "./support/uploads";
import "./support/provided-context";

const appUrl = inject("e2eAppUrl");
const outboxPath = inject("e2eOutboxPath");

let browser: TestBrowser;
let directory: string;
let video: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-e2e-a11y-"));
  // A minute with a planted loud burst (a clip to edit), still being processed when its page opens.
  video = path.join(directory, "talk.mp4");
  [browser] = await Promise.all([launchBrowser(), makePlantedMinute(video)]);
});

afterAll(async () => {
  await browser?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

describe("accessibility (axe-core, WCAG 2.1 AA) in Chromium", () => {
  it("finds nothing to fix on any page a creator goes through, from sign-in to a clip's editor and a missing page", async () => {
    const page = await browser.context.newPage();
    const found: string[] = [];
    const check = async (state: string) => {
      for (const violation of await accessibilityViolations(page)) found.push(`${state}: ${violation}`);
    };

    await page.goto(`${appUrl}/login`);
    await check("login");
    const email = `a11y-${randomUUID()}@example.test`;
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    await check("check your inbox");
    await page.goto(await waitForLinkInOutbox({ outboxPath, to: email }));
    await page.getByRole("heading", { name: /^Sign in as / }).waitFor();
    await check("confirm sign-in");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard");
    await page.getByText("No videos yet — upload one").waitFor();
    await check("dashboard, no videos");
    await page.goto(`${appUrl}/clips`);
    await page.getByText("No clips yet").waitFor();
    await check("clips, none");
    await page.goto(`${appUrl}/videos`);
    await page.getByText("No videos yet").waitFor();
    await check("videos, none");

    await page.getByLabel("Choose files").setInputFiles(video);
    const row = page.getByTestId("video-row").filter({ hasText: "talk.mp4" });
    await row.waitFor();
    const videoId = await row.getAttribute("data-video-id");
    await waitForUploadStored(page, "talk.mp4");
    await page.goto(`${appUrl}/videos/${videoId}`);
    await page.getByRole("list", { name: "Processing steps" }).waitFor();
    await check("video, processing");
    // The creator may leave: the email that says it is done goes to their address.
    await page.getByText(`and Truss emails ${email} when the clips are ready.`).waitFor();

    await waitForVideoReady(page, { appUrl, videoId, timeoutMs: 120_000 });
    await page.reload();
    await page.getByRole("link", { name: "Download" }).first().waitFor();
    await check("video, ready");
    await page.getByText("Other clips…").click();
    await page.getByRole("button", { name: "Find clips again" }).waitFor();
    await check("other clips, asked");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page
      .getByRole("button", { name: /^Play “/ })
      .first()
      .click();
    await page.getByRole("dialog").waitFor();
    await check("clip player");
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Edit" }).first().click();
    await page.getByRole("button", { name: "Save and re-render" }).waitFor();
    await check("clip editor");
    await page.getByRole("button", { name: "Delete clip" }).first().click();
    await page.getByRole("alertdialog").waitFor();
    await check("deleting a clip, asked");
    await page.keyboard.press("Escape");
    await page.getByRole("alertdialog").waitFor({ state: "hidden" });
    await page.goto(`${appUrl}/clips`);
    await page.getByRole("region", { name: "talk.mp4" }).waitFor();
    await check("clips");
    await page.goto(`${appUrl}/dashboard`);
    await page.getByRole("heading", { name: "Top clips" }).waitFor();
    await check("dashboard");
    await page.goto(`${appUrl}/settings`);
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    await check("settings");
    // Addresses with nothing behind them answer 404 with a page of Truss's own.
    const missingVideo = await page.goto(`${appUrl}/videos/vid_${randomUUID().replaceAll("-", "")}`);
    expect(missingVideo?.status()).toBe(404);
    await page.getByRole("heading", { name: "This video is not here" }).waitFor();
    await check("a video that is not there");
    const missingPage = await page.goto(`${appUrl}/no-such-page`);
    expect(missingPage?.status()).toBe(404);
    await page.getByRole("heading", { name: "There is no page here" }).waitFor();
    await check("an address with no page");
    // A phone's width: the navigation and the video page laid out in one column.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${appUrl}/videos/${videoId}`);
    await page.getByRole("link", { name: "Download" }).first().waitFor();
    await check("video, ready, on a phone");

    expect(found, `${found.length} violations:\n${found.join("\n")}`).toEqual([]);
    await page.close();
  });
});
