import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeTestVideo } from "../src/server/videos/testing/test-media";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { waitForEmail } from "./support/outbox";
import {
  recordPartPuts,
  signInAsNewCreator,
  startUploadStack,
  throttleUploads,
  waitForRowPastUpload,
  waitForUploadStored,
} from "./support/uploads";

let upload: Awaited<ReturnType<typeof startUploadStack>>;
let browser: TestBrowser;
let directory: string;
let smallVideo: string;
let bigVideo: string;
let phoneVideo: string;

beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), "truss-e2e-files-"));
  smallVideo = path.join(directory, "interview.mp4");
  bigVideo = path.join(directory, "conference-talk.mp4");
  phoneVideo = path.join(directory, "phone-hevc.mp4");
  [upload] = await Promise.all([
    startUploadStack(),
    // 20 s: the automatic clip length (15–60 s) with room to choose.
    makeTestVideo({ outputPath: smallVideo, durationSeconds: 20, width: 640, height: 360, crf: 30 }),
    // Film grain keeps it large: ~30 MB, six or more 5 MiB parts.
    makeTestVideo({
      outputPath: bigVideo,
      durationSeconds: 20,
      width: 320,
      height: 180,
      crf: 16,
      noise: true,
    }),
    // HEVC, as phones record: this Chromium plays its sound but cannot show its picture.
    makeTestVideo({ outputPath: phoneVideo, durationSeconds: 6, videoCodec: "hevc" }),
  ]);
  browser = await launchBrowser();
});

afterEach((context) => {
  if (context.task.result?.state === "fail")
    console.error(`[e2e uploads] stack output:\n${upload?.logs().slice(-6000)}`);
});

afterAll(async () => {
  await browser?.close();
  await upload?.stop();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

type VideoJson = {
  id: string;
  clipOptions: { count: number; minSeconds: number; maxSeconds: number };
  status: string;
  metadata: {
    durationSeconds: number;
    width: number;
    height: number;
    videoCodec: string;
    audioCodec: string;
  } | null;
};

/** A page of a newly signed-in creator, on the videos list. */
async function newCreatorOnVideos(emailPrefix: string): Promise<Page> {
  const page = await browser.context.newPage();
  await signInAsNewCreator(page, {
    appUrl: upload.appUrl,
    outboxPath: upload.stack.config.mail.outboxPath,
    email: `${emailPrefix}-${randomUUID()}@example.test`,
  });
  await page.goto(`${upload.appUrl}/videos`);
  return page;
}

/** Waits until the creator's list (the API's) has no video of this file name. */
async function expectNoVideoNamed(page: Page, filename: string): Promise<void> {
  const named = async () => {
    const { videos } = (await (await page.request.get(`${upload.appUrl}/api/videos`)).json()) as {
      videos: { filename: string }[];
    };
    return videos.filter((video) => video.filename === filename).length;
  };
  await expect.poll(named, { timeout: 15_000 }).toBe(0);
}

/**
 * Clicks three quarters of the way along the interest timeline, then the first chapter, then the
 * clip's first reason, and after each expects the source player to have moved there (it plays on
 * from there, so up to a few seconds later) and the timeline to say so.
 */
async function expectSeeksPlayTheSource(page: Page, card: Locator, clipId: string): Promise<void> {
  const player = page.getByLabel("Source video");
  await expect.poll(() => player.evaluate((video: HTMLVideoElement) => video.readyState)).toBeGreaterThan(0);
  const durationSeconds = await player.evaluate((video: HTMLVideoElement) => video.duration);
  const timeline = page.getByRole("slider", { name: /^Interest timeline/ });
  const at = () => player.evaluate((video: HTMLVideoElement) => video.currentTime);
  // Paused far from where a click should take it, so that staying put cannot pass.
  const parkAwayFrom = async (seconds: number) => {
    const away = seconds < durationSeconds / 2 ? durationSeconds - 2 : 0;
    await player.evaluate((video: HTMLVideoElement, to: number) => {
      video.pause();
      video.currentTime = to;
    }, away);
    await expect.poll(at).toBeCloseTo(away, 0);
  };
  const expectPlayerAt = async (seconds: number) => {
    const near = (value: number) => value >= seconds - 1 && value < seconds + 3;
    await expect.poll(at).toSatisfy(near);
    await expect.poll(async () => Number(await timeline.getAttribute("aria-valuenow"))).toSatisfy(near);
  };

  const plot = (await timeline.boundingBox())!;
  await parkAwayFrom(0.75 * durationSeconds);
  await page.mouse.click(plot.x + plot.width * 0.75, plot.y + plot.height / 2);
  await expectPlayerAt(0.75 * durationSeconds);

  await parkAwayFrom(0);
  await page.getByRole("list", { name: "Chapters" }).getByRole("button").first().click();
  await expectPlayerAt(0);

  const { clip } = (await (await page.request.get(`${upload.appUrl}/api/clips/${clipId}`)).json()) as {
    clip: { reasons: { atSeconds: number; text: string }[] };
  };
  const [reason] = clip.reasons;
  if (!reason) throw new Error("The clip has no reason to seek to");
  await parkAwayFrom(reason.atSeconds);
  await card.getByRole("listitem").filter({ hasText: reason.text }).getByRole("button").click();
  await expectPlayerAt(reason.atSeconds);
}

describe("uploading videos in Chromium", () => {
  it("uploads a generated video through the page, shows progress and its metadata, and its clips reach the dashboard", async () => {
    const page = await browser.context.newPage();
    const email = `uploader-${randomUUID()}@example.test`;
    await signInAsNewCreator(page, {
      appUrl: upload.appUrl,
      outboxPath: upload.stack.config.mail.outboxPath,
      email,
    });
    await page.goto(`${upload.appUrl}/videos`);
    await page.getByText("No videos yet").waitFor();
    // The clips to ask for: chosen once the page answers (the browser remembers the choice).
    const remembered = () => page.evaluate(() => localStorage.getItem("truss:clip-options"));
    await expect
      .poll(async () => {
        await page.getByLabel("Clips per video").selectOption("3");
        await page.getByLabel("Clip length").selectOption({ label: "Short: 15–30 s" });
        return JSON.parse((await remembered()) ?? "null");
      })
      .toEqual({ count: 3, minSeconds: 15, maxSeconds: 30 });
    // Slow enough to watch: the file takes a few seconds at 600 KB/s.
    await throttleUploads(page, 600_000);

    await page.getByLabel("Choose files").setInputFiles(smallVideo);
    const row = page.getByTestId("upload-row").filter({ hasText: "interview.mp4" });
    const bar = row.getByRole("progressbar");
    // Progress while uploading: a partial percentage with a speed and a time left.
    await page.waitForFunction(
      () => {
        const value = Number(
          document
            .querySelector('[data-testid="upload-row"] [role="progressbar"]')
            ?.getAttribute("aria-valuenow"),
        );
        return value > 0 && value < 100;
      },
      undefined,
      { timeout: 30_000 },
    );
    // …with a speed and a time left once there is enough to measure.
    await expect
      .poll(() => row.getByTestId("upload-status").textContent(), { timeout: 10_000 })
      .toMatch(/^\d+% · .* of .* · [\d.]+ (KB|MB)\/s · (\d+ s|about \d+ min) left/);
    await row.and(page.locator('[data-phase="done"]')).waitFor({ timeout: 60_000 });
    expect(await bar.getAttribute("aria-valuenow")).toBe("100");

    // The library updates without a reload: the video moves on to QUEUED (or further).
    const videoRow = page.getByTestId("video-row").filter({ hasText: "interview.mp4" });
    await waitForRowPastUpload(page, videoRow);
    await expect.poll(() => videoRow.getByTestId("video-details").textContent()).toContain("640×360");
    expect(await videoRow.getByTestId("video-details").textContent()).toContain("0:20");

    const videoId = await videoRow.getAttribute("data-video-id");
    const response = await page.request.get(`${upload.appUrl}/api/videos/${videoId}`);
    const { video } = (await response.json()) as { video: VideoJson };
    expect(["QUEUED", "ANALYZING", "RENDERING", "READY"]).toContain(video.status);
    expect(video.metadata).toMatchObject({ width: 640, height: 360, videoCodec: "h264", audioCodec: "aac" });
    expect(video.clipOptions).toEqual({ count: 3, minSeconds: 15, maxSeconds: 30 });
    expect(video.metadata?.durationSeconds).toBeGreaterThan(19.9);
    expect(video.metadata?.durationSeconds).toBeLessThan(20.2);

    // The dashboard lists it among the recent videos, linking to its page.
    await page.goto(`${upload.appUrl}/dashboard`);
    const recent = page.getByTestId("recent-video").filter({ hasText: "interview.mp4" });
    await recent.waitFor();
    expect(await recent.getByRole("link", { name: "interview.mp4" }).getAttribute("href")).toBe(
      `/videos/${videoId}`,
    );
    expect(await page.getByText("No videos yet").count()).toBe(0);

    // The dashboard follows the processing without a reload: the row turns Ready, and the
    // video's clips appear among the top clips, where one plays in place.
    await recent.getByText("Ready", { exact: true }).waitFor({ timeout: 150_000 });
    const topClip = page.getByTestId("top-clip").first();
    await topClip.waitFor();
    // With a video uploaded and its clips made, the first steps give way to the last days:
    // today's bar counts the clips just made.
    await page.getByRole("heading", { name: "Last 14 days" }).waitFor();
    const clipCount = (await (await page.request.get(`${upload.appUrl}/api/videos/${videoId}`)).json()).video
      .clipCount as number;
    // Counted just after the video turned ready, which is when the page stopped refreshing.
    const chart = page.getByRole("img", { name: /^Clips made each day: / });
    await expect
      .poll(async () => {
        const label = await chart.getAttribute("aria-label");
        if (label?.endsWith("none")) await page.reload();
        return label;
      })
      .toMatch(new RegExp(`: \\d+ \\w+ ${clipCount}$`));
    // Under the bars, the busiest day's number gives them their scale.
    await page.getByText(new RegExp(`^Busiest day: .+, ${clipCount} clips?$`)).waitFor();
    expect(await topClip.getByRole("link").getAttribute("href")).toMatch(
      new RegExp(`^/videos/${videoId}#clip-`),
    );
    await topClip.getByRole("button", { name: /^Play “/ }).click();
    const player = page.locator("dialog[open] video");
    await player.waitFor();
    const clipResponse = await page.request.get((await player.getAttribute("src")) as string);
    expect(clipResponse.status()).toBe(200);
    expect(clipResponse.headers()["content-type"]).toContain("video/mp4");
    await page.keyboard.press("Escape");

    // The creator was emailed that the clips are ready; its link opens the video's page.
    const readyEmail = await waitForEmail({
      outboxPath: upload.stack.config.mail.outboxPath,
      to: email,
      subject: new RegExp(`^${clipCount} clips? from “interview\\.mp4” (is|are) ready$`),
    });
    const videoLink = /https?:\/\/\S+/.exec(readyEmail.text)?.[0];
    expect(videoLink).toBe(`${upload.appUrl}/videos/${videoId}`);

    // On the video's page, the interest timeline, a chapter and a clip's reasons each play the
    // source from their moment.
    await page.goto(videoLink!);
    await page.getByText(/^\d clips?(, | \(up to 3 asked, )15–30 s each\)?$/).waitFor();
    const card = page.locator("article[id^='clip-']").first();
    const clipId = (await card.getAttribute("id"))!.replace(/^clip-/, "");
    await expectSeeksPlayTheSource(page, card, clipId);

    // Opening a clip while the source plays pauses the source: one soundtrack at a time. (From
    // the start: the reason's moment may be too near the end to still be playing.)
    const source = page.getByLabel("Source video");
    await source.evaluate((video: HTMLVideoElement) => {
      video.currentTime = 0;
      return video.play();
    });
    await card.getByRole("button", { name: /^Play “/ }).click();
    const clipPlayer = page.locator("dialog[open] video");
    await expect.poll(() => clipPlayer.evaluate((video: HTMLVideoElement) => video.paused)).toBe(false);
    expect(await source.evaluate((video: HTMLVideoElement) => video.paused)).toBe(true);
    await page.keyboard.press("Escape");

    // On the video's page the creator picks another layout for a clip, and it re-renders so.
    // The editor takes the focus in its start field; Escape leaves it, back on Edit.
    await card.getByRole("button", { name: "Edit", exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? "")).toMatch(/-start$/);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe("Edit");
    await card.getByRole("button", { name: "Edit", exact: true }).click();
    await card.getByLabel("Layout").selectOption("fit");
    await card.getByRole("button", { name: "Save and re-render" }).click();
    await card.getByRole("button", { name: "Edit", exact: true }).waitFor();
    await expect
      .poll(
        async () => {
          const { clip } = await (await page.request.get(`${upload.appUrl}/api/clips/${clipId}`)).json();
          return { layout: clip.layout, status: clip.status, rendered: clip.rendered?.layout };
        },
        { timeout: 120_000, interval: 1_000 },
      )
      .toEqual({ layout: "fit", status: "READY", rendered: "fit" });
    await card.getByRole("button", { name: "Edit", exact: true }).click();
    await card.getByText("Rendered now: the whole frame").waitFor({ timeout: 30_000 });

    // A subtitle file for the video: a page of notes is refused with the reason; an SRT is
    // kept, and the clips re-render with its lines as captions.
    const subtitles = page.getByLabel("Choose a subtitle file");
    await subtitles.setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("just notes"),
    });
    await page.getByText(/not an SRT or WebVTT file/).waitFor();
    const srt = Array.from({ length: 9 }, (_, index) =>
      [
        index + 1,
        `00:00:${String(index * 2).padStart(2, "0")},000 --> 00:00:${String(index * 2 + 1).padStart(2, "0")},500`,
        `Line ${index + 1}`,
        "",
      ].join("\n"),
    ).join("\n");
    await subtitles.setInputFiles({
      name: "interview.srt",
      mimeType: "application/x-subrip",
      buffer: Buffer.from(srt),
    });
    await page.getByText(/^Captions from interview\.srt saved\. \d+ clips? re-rendering\.$/).waitFor();
    await page.getByText("9 lines, burned into the clips.", { exact: false }).waitFor();
    await expect
      .poll(
        async () => {
          const { clip } = await (await page.request.get(`${upload.appUrl}/api/clips/${clipId}`)).json();
          return clip.status === "READY" && clip.rendered?.revision === clip.revision;
        },
        { timeout: 120_000, interval: 1_000 },
      )
      .toBe(true);

    // Asked for other clips, the video is analysed again and the page follows it to the end. The
    // clip given a layout above is the creator's now: it stays, beside what is found.
    await page.getByText("Other clips…").click();
    await page.getByLabel("Clips per video").selectOption("1");
    await page.getByRole("button", { name: "Find clips again" }).click();
    const request = page.getByText(/^(\d) clips? \(up to 1 asked, 15–30 s each; 1 edited by you\)$/);
    await request.waitFor({ timeout: 120_000 });
    const shown = Number(/^(\d)/.exec((await request.textContent()) ?? "")?.[1]);
    expect(await page.locator("article[id^='clip-']").count()).toBe(shown);
    const kept = page.locator(`article#clip-${clipId}`);
    await kept.getByText("Edited by you").waitFor();

    // The creator deletes that clip: it leaves the page, the count follows, and it is gone.
    await kept.getByRole("button", { name: "Edit", exact: true }).click();
    await kept.getByRole("button", { name: "Delete clip" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete clip" }).click();
    await kept.waitFor({ state: "detached" });
    // The button that asked went with the clip: the focus lands on the list's heading, not the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("clips-heading");
    expect(await page.locator("article[id^='clip-']").count()).toBe(shown - 1);
    await page.getByText(new RegExp(`^${shown - 1} clips? `)).waitFor();
    expect((await page.request.get(`${upload.appUrl}/api/clips/${clipId}`)).status()).toBe(404);
    await page.close();
  }, 420_000);

  it("uploads a file above the multipart threshold in parts, retries a failed part, and after a reload resumes without re-sending stored parts", async () => {
    const sizeBytes = statSync(bigVideo).size;
    const partSize = 5 * 1024 * 1024;
    const partCount = Math.ceil(sizeBytes / partSize);
    expect(partCount).toBeGreaterThanOrEqual(5);

    const page = await browser.context.newPage();
    await signInAsNewCreator(page, {
      appUrl: upload.appUrl,
      outboxPath: upload.stack.config.mail.outboxPath,
      email: `big-uploader-${randomUUID()}@example.test`,
    });
    await page.goto(`${upload.appUrl}/videos`);
    await throttleUploads(page, 3_000_000);
    const before = recordPartPuts(page, upload.s3Origin);
    // The first attempt at part 2 fails on the network; the page must retry it.
    let failedOnce = false;
    await page.route(
      (url) => !failedOnce && url.origin === upload.s3Origin && url.searchParams.get("partNumber") === "2",
      async (route) => {
        failedOnce = true;
        await route.abort("connectionreset");
      },
    );
    const recorded: number[] = [];
    page.on("response", (response) => {
      const match = /\/api\/videos\/[^/]+\/upload-parts\/(\d+)$/.exec(new URL(response.url()).pathname);
      if (match && response.request().method() === "PUT" && response.status() === 204)
        recorded.push(Number(match[1]));
    });

    await page.getByLabel("Choose files").setInputFiles(bigVideo);
    // Reload once the failed part 2 is stored after its retry, while later parts are still on
    // their way (it is one of the first four sent, the retry a second after its failure).
    await expect.poll(() => recorded.includes(2), { timeout: 90_000 }).toBe(true);
    expect(failedOnce).toBe(true);
    expect(before.filter((partNumber) => partNumber === 2).length).toBeGreaterThanOrEqual(2);
    // Leaving while parts are on their way asks first; the creator leaves anyway.
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toEqual(["beforeunload"]);

    const videoRow = page.getByTestId("video-row").filter({ hasText: "conference-talk.mp4" });
    await videoRow.getByText("Upload interrupted").waitFor();
    // The badge agrees with the text: no page is sending this upload now.
    await videoRow.getByText("Interrupted", { exact: true }).waitFor();
    const videoId = await videoRow.getAttribute("data-video-id");
    const state = await page.request.get(`${upload.appUrl}/api/videos/${videoId}/upload`);
    const { upload: resume } = (await state.json()) as {
      upload: { storedParts: { partNumber: number }[]; partCount: number };
    };
    const stored = resume.storedParts.map((part) => part.partNumber);
    expect(stored.length).toBeGreaterThanOrEqual(2);
    expect(resume.partCount).toBe(partCount);

    // The video's own page does not promise that the upload carries on without its page.
    const videoPage = await page.context().newPage();
    await videoPage.goto(`${upload.appUrl}/videos/${videoId}`);
    await videoPage.getByText("The file is sent by the page where it was chosen").waitFor();
    expect(await videoPage.getByText("processing carries on").count()).toBe(0);
    expect(
      await videoPage.getByRole("link", { name: "Videos", exact: true }).last().getAttribute("href"),
    ).toBe("/videos");
    await videoPage.close();

    // Picking the same file again resumes: only the missing parts are sent.
    const after = recordPartPuts(page, upload.s3Origin);
    await page.getByLabel("Choose files").setInputFiles(bigVideo);
    const row = page.getByTestId("upload-row").filter({ hasText: "conference-talk.mp4" });
    await row.and(page.locator('[data-phase="done"]')).waitFor({ timeout: 120_000 });
    expect(await row.getByTestId("upload-status").textContent()).toContain(
      `resumed (${stored.length} parts were already uploaded)`,
    );
    for (const partNumber of stored)
      expect(after, `part ${partNumber} was sent again`).not.toContain(partNumber);
    expect(new Set(after).size).toBe(partCount - stored.length);

    await waitForRowPastUpload(page, videoRow);
    const { video } = (await (await page.request.get(`${upload.appUrl}/api/videos/${videoId}`)).json()) as {
      video: VideoJson & { sizeBytes: number };
    };
    expect(video.sizeBytes).toBe(sizeBytes);
    expect(video.metadata).toMatchObject({ width: 320, height: 180 });
    await page.close();
  });

  it("keeps an upload going, and in view, while the creator visits other pages of the app", async () => {
    const page = await newCreatorOnVideos("wandering-uploader");
    // ~30 MB at 2 MB/s: a quarter of a minute to go elsewhere and come back.
    await throttleUploads(page, 2_000_000);
    const sent = recordPartPuts(page, upload.s3Origin);
    await page.getByLabel("Choose files").setInputFiles(bigVideo);
    const row = page.getByTestId("upload-row").filter({ hasText: "conference-talk.mp4" });
    await row.and(page.locator('[data-phase="uploading"]')).waitFor({ timeout: 30_000 });

    // The Clips tab, in the app (no reload): the parts keep going, and closing the tab still asks.
    await page.getByRole("link", { name: "Clips", exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === "/clips");
    const sentWhenLeft = sent.length;
    await expect.poll(() => sent.length, { timeout: 30_000 }).toBeGreaterThan(sentWhenLeft);
    const asksBeforeClosing = await page.evaluate(() => {
      const event = new Event("beforeunload", { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(asksBeforeClosing).toBe(true);

    // Back on the videos page, the row is there with its progress and Cancel, and the library
    // does not call the upload interrupted (which would invite choosing the file again).
    await page.getByRole("link", { name: "Videos", exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === "/videos");
    await row.getByRole("button", { name: "Cancel upload of conference-talk.mp4", exact: true }).waitFor();
    expect(Number(await row.getByRole("progressbar").getAttribute("aria-valuenow"))).toBeGreaterThan(0);
    const videoRow = page.getByTestId("video-row").filter({ hasText: "conference-talk.mp4" });
    await videoRow.waitFor();
    expect(await videoRow.getByText("Upload interrupted").count()).toBe(0);

    await row.and(page.locator('[data-phase="done"]')).waitFor({ timeout: 120_000 });
    await waitForRowPastUpload(page, videoRow);
    expect(await videoRow.count()).toBe(1);
    await page.close();
  });

  it("retries a part whose connection stays open but sends nothing, and the upload still completes", async () => {
    const page = await browser.context.newPage();
    await signInAsNewCreator(page, {
      appUrl: upload.appUrl,
      outboxPath: upload.stack.config.mail.outboxPath,
      email: `stalled-uploader-${randomUUID()}@example.test`,
    });
    await page.goto(`${upload.appUrl}/videos`);
    const sent = recordPartPuts(page, upload.s3Origin);
    // Storage takes the first PUT of part 3 and never answers: no error, no timeout, nothing.
    // Only the page's stall watchdog (30 s without progress) can end it and retry the part.
    let stalledOnce = false;
    await page.route(
      (url) => !stalledOnce && url.origin === upload.s3Origin && url.searchParams.get("partNumber") === "3",
      () => {
        stalledOnce = true;
      },
    );

    await page.getByLabel("Choose files").setInputFiles(bigVideo);
    const row = page.getByTestId("upload-row").filter({ hasText: "conference-talk.mp4" });
    await row.and(page.locator('[data-phase="done"]')).waitFor({ timeout: 120_000 });
    expect(stalledOnce).toBe(true);
    expect(sent.filter((partNumber) => partNumber === 3).length).toBe(2);
    await page.close();
  });

  it("completes a single-PUT upload whose answer was lost after storage kept the file (the retry meets 412)", async () => {
    const page = await newCreatorOnVideos("lost-answer-uploader");
    // Storage stores the first PUT (sent here with the page's URL and headers, as the browser
    // would: an intercepted request's file body is not handed over), but its answer never
    // reaches the page.
    const answers: number[] = [];
    const fileBytes = new Uint8Array(readFileSync(smallVideo));
    await page.route(
      (url) => url.origin === upload.s3Origin,
      async (route) => {
        const request = route.request();
        if (request.method() !== "PUT") return route.continue();
        const { "content-type": contentType = "", "if-none-match": ifNoneMatch = "" } =
          await request.allHeaders();
        const response = await fetch(request.url(), {
          method: "PUT",
          headers: { "content-type": contentType, "if-none-match": ifNoneMatch },
          body: fileBytes,
        });
        await response.arrayBuffer();
        answers.push(response.status);
        if (answers.length === 1) return route.abort("connectionreset");
        return route.fulfill({ status: response.status, headers: Object.fromEntries(response.headers) });
      },
    );
    await page.getByLabel("Choose files").setInputFiles(smallVideo);
    const row = page.getByTestId("upload-row").filter({ hasText: "interview.mp4" });
    await row.and(page.locator('[data-phase="done"]')).waitFor({ timeout: 60_000 });
    // The retry could not replace the stored file; the page took that as stored and completed.
    expect(answers).toEqual([200, 412]);
    const videoRow = page.getByTestId("video-row").filter({ hasText: "interview.mp4" });
    await waitForRowPastUpload(page, videoRow);
    await page.close();
  });

  it("refuses an empty file in the page, sends nothing, offers no Retry, and lets the page go without asking", async () => {
    const page = await newCreatorOnVideos("empty-file-uploader");
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.method() !== "GET") sent.push(`${request.method()} ${request.url()}`);
    });
    await page.getByLabel("Choose files").setInputFiles({
      name: "zero.mp4",
      mimeType: "video/mp4",
      buffer: Buffer.alloc(0),
    });
    const row = page.getByTestId("upload-row").filter({ hasText: "zero.mp4" });
    await row.and(page.locator('[data-phase="failed"]')).waitFor();
    await row.getByText("zero.mp4 is empty (0 bytes). Choose another file.").waitFor();
    expect(await row.getByRole("button", { name: /^Retry/ }).count()).toBe(0);
    await row.getByRole("button", { name: "Discard upload of zero.mp4", exact: true }).waitFor();
    expect(await row.getByText(/resumes/).count()).toBe(0);
    expect(sent).toEqual([]);
    // Nothing is being sent, so leaving does not ask.
    const asked: string[] = [];
    page.on("dialog", (dialog) => {
      asked.push(dialog.type());
      void dialog.accept();
    });
    await page.reload();
    expect(asked).toEqual([]);
    await page.close();
  });

  it("leaves no video behind when the upload is cancelled before the server's answer names it", async () => {
    const page = await newCreatorOnVideos("cancelling-uploader");
    // The server creates the video; its answer reaches the page only once Cancel is pressed.
    let cancelPressed: () => void = () => {};
    const pressed = new Promise<void>((resolve) => {
      cancelPressed = resolve;
    });
    let created = false;
    await page.route(
      (url) => url.origin === upload.appUrl && url.pathname === "/api/videos",
      async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        const response = await route.fetch();
        created = response.status() === 201;
        await pressed;
        await route.fulfill({ response }).catch(() => {
          // The page dropped the request: the answer has nowhere to go.
        });
      },
    );
    await page.getByLabel("Choose files").setInputFiles(smallVideo);
    const row = page.getByTestId("upload-row").filter({ hasText: "interview.mp4" });
    await expect.poll(() => created, { timeout: 15_000 }).toBe(true);
    await row.getByRole("button", { name: "Cancel upload of interview.mp4", exact: true }).click();
    cancelPressed();
    await row.waitFor({ state: "detached" });
    await expectNoVideoNamed(page, "interview.mp4");
    await page.close();
  });

  it("deletes the video when the upload is cancelled while its first PUT keeps failing", async () => {
    const page = await newCreatorOnVideos("cancel-retrying-uploader");
    // Storage drops every PUT: the page retries with backoff and no byte is ever counted.
    let puts = 0;
    await page.route(
      (url) => url.origin === upload.s3Origin,
      (route) => {
        puts += 1;
        return route.abort("connectionreset");
      },
    );
    await page.getByLabel("Choose files").setInputFiles(smallVideo);
    const row = page.getByTestId("upload-row").filter({ hasText: "interview.mp4" });
    await expect.poll(() => puts, { timeout: 15_000 }).toBeGreaterThan(0);
    await row.getByRole("button", { name: "Cancel upload of interview.mp4", exact: true }).click();
    await row.waitFor({ state: "detached" });
    await expectNoVideoNamed(page, "interview.mp4");
    await page.close();
  });

  it("says so in place of a black player when the browser cannot show the source's video (HEVC)", async () => {
    const page = await browser.context.newPage();
    await signInAsNewCreator(page, {
      appUrl: upload.appUrl,
      outboxPath: upload.stack.config.mail.outboxPath,
      email: `phone-${randomUUID()}@example.test`,
    });
    await page.goto(`${upload.appUrl}/videos`);
    await page.getByLabel("Choose files").setInputFiles(phoneVideo);
    const videoRow = page.getByTestId("video-row").filter({ hasText: "phone-hevc.mp4" });
    await videoRow.waitFor({ timeout: 60_000 });
    await waitForUploadStored(page, "phone-hevc.mp4");
    const videoId = await videoRow.getAttribute("data-video-id");
    await page.goto(`${upload.appUrl}/videos/${videoId}`);
    // The page refreshes itself until the clips are rendered (H.264, which plays everywhere)…
    await page.getByRole("link", { name: "Download" }).first().waitFor({ timeout: 120_000 });
    // …while the source's own player, whose picture would stay black, gives way to a sentence.
    await page.getByText("This browser cannot show the source file's video format.").waitFor();
    // The timeline no longer offers to play what cannot be shown.
    await page.getByText("Click a marker to see its clip").waitFor();
    expect(await page.getByText("Click to play from any moment").count()).toBe(0);

    // Deleted from the library, after Truss's own dialog asks: the row and the video are gone.
    await page.goto(`${upload.appUrl}/videos`);
    await page.getByRole("button", { name: "Delete phone-hevc.mp4" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete video" }).click();
    await page.getByTestId("video-row").filter({ hasText: "phone-hevc.mp4" }).waitFor({ state: "detached" });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("library-heading");
    expect((await page.request.get(`${upload.appUrl}/api/videos/${videoId}`)).status()).toBe(404);
    await page.close();
  }, 180_000);
});
