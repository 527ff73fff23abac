import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { makeTestVideo } from "../src/server/videos/testing/test-media";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { signInAsNewCreator, throttleUploads } from "./support/uploads";
import "./support/provided-context";

const appUrl = inject("e2eAppUrl");
const outboxPath = inject("e2eOutboxPath");

let browser: TestBrowser;
let directory: string;
let grainyVideo: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-e2e-progress-"));
  grainyVideo = path.join(directory, "livestream.mp4");
  // Film grain keeps it large (~15 MB): at 1 MB/s its upload takes a quarter of a minute.
  [browser] = await Promise.all([
    launchBrowser(),
    makeTestVideo({
      outputPath: grainyVideo,
      durationSeconds: 10,
      width: 320,
      height: 180,
      crf: 16,
      noise: true,
    }),
  ]);
});

afterAll(async () => {
  await browser?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

async function newCreatorOn(pathname: string): Promise<Page> {
  const page = await browser.context.newPage();
  await signInAsNewCreator(page, { appUrl, outboxPath, email: `progress-${randomUUID()}@example.test` });
  await page.goto(`${appUrl}${pathname}`);
  return page;
}

describe("where a video stands, in the library and on the dashboard, in Chromium", () => {
  it("reads a URL import as importing — never as an interrupted upload — until it fails, and says the import started", async () => {
    const page = await newCreatorOn("/videos");
    // A host that does not resolve: the server takes the URL (it may resolve for the worker),
    // and the worker tries three times (10 s and 30 s apart) before the import fails.
    await page.getByLabel("Or import from a URL").fill("https://truss-e2e-import.invalid/keynote.mp4");
    await page.getByRole("button", { name: "Import", exact: true }).click();
    await page
      .getByRole("status")
      .getByText("Import started: “keynote.mp4” is in the library below.")
      .waitFor();
    expect(await page.getByLabel("Or import from a URL").inputValue()).toBe("");

    const row = page.getByTestId("video-row").filter({ hasText: "keynote.mp4" });
    await row.getByText("Importing", { exact: true }).waitFor();
    await row.getByText(/^Importing from a URL/).waitFor();
    expect(await row.getByText("Upload interrupted").count()).toBe(0);
    expect(await row.getByText("Interrupted", { exact: true }).count()).toBe(0);
    // The new row is marked, so the creator sees where the import went.
    expect(await row.getAttribute("data-highlighted")).toBe("true");

    const dashboard = await browser.context.newPage();
    await dashboard.goto(`${appUrl}/dashboard`);
    const recent = dashboard.getByTestId("recent-video").filter({ hasText: "keynote.mp4" });
    await recent.getByText(/^Importing from a URL/).waitFor();
    await recent.getByText("Importing", { exact: true }).waitFor();
    expect(await recent.getByText("Upload not finished").count()).toBe(0);
    // Its own page does not ask to keep a page open, or to choose a file again: nobody uploads it.
    await dashboard.goto(`${appUrl}/videos/${await row.getAttribute("data-video-id")}`);
    await dashboard.getByText(/^Importing from the URL/).waitFor();
    await dashboard.getByText("Importing", { exact: true }).waitFor();
    expect(await dashboard.getByText("The file is sent by the page where it was chosen").count()).toBe(0);
    await dashboard.close();

    // The library follows the import by itself, to its failure and the reason.
    await row
      .getByText("The import failed: The host truss-e2e-import.invalid could not be found.")
      .waitFor({ timeout: 120_000 });
    await row.getByText("Failed", { exact: true }).waitFor();
    await page.close();
  });

  it("shows the live upload's percentage on the dashboard while this tab uploads, as the videos page does", async () => {
    const page = await newCreatorOn("/videos");
    await throttleUploads(page, 1_000_000);
    await page.getByLabel("Choose files").setInputFiles(grainyVideo);
    const uploadRow = page.getByTestId("upload-row").filter({ hasText: "livestream.mp4" });
    await uploadRow.and(page.locator('[data-phase="uploading"]')).waitFor({ timeout: 30_000 });
    // The video exists once its upload started; the dashboard's server list has it.
    const videoRow = page.getByTestId("video-row").filter({ hasText: "livestream.mp4" });
    await videoRow.waitFor();
    const videoId = await videoRow.getAttribute("data-video-id");

    // To the dashboard within the app, as a click does: a full load would stop the upload.
    await page.getByRole("link", { name: "Dashboard", exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === "/dashboard");
    const recent = page.getByTestId("recent-video").filter({ hasText: "livestream.mp4" });
    await recent.getByText("Uploading", { exact: true }).waitFor();
    const percentage = () => recent.locator("p").textContent();
    await expect.poll(percentage, { timeout: 15_000 }).toMatch(/^\d+% · .* of .* · /);
    const first = Number(/^(\d+)%/.exec((await percentage()) ?? "")?.[1]);
    // It moves while the page is looked at.
    await expect
      .poll(async () => Number(/^(\d+)%/.exec((await percentage()) ?? "")?.[1]), { timeout: 15_000 })
      .toBeGreaterThan(first);
    expect(await recent.getByText("Upload not finished").count()).toBe(0);

    // Closing the page stops the upload; the half-sent video is not left for the sweep.
    await page.close();
    expect((await browser.context.request.delete(`${appUrl}/api/videos/${videoId}`)).status()).toBe(204);
  });
});
