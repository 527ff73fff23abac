import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, type TestBrowser } from "./support/browser";
import "./support/provided-context";
import { signInAsNewCreator } from "./support/uploads";

const appUrl = inject("e2eAppUrl");
const outboxPath = inject("e2eOutboxPath");

let browser: TestBrowser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("settings in Chromium", () => {
  it("saves the profile — a name, a time zone, no ready emails — and shows it after a reload", async () => {
    const page = await browser.context.newPage();
    await signInAsNewCreator(page, { appUrl, outboxPath, email: `settings-${randomUUID()}@example.test` });
    await page.goto(`${appUrl}/settings`);
    const readyEmails = page.getByLabel("Email me when a video's clips are ready");
    // On for a new creator: a long video takes a while, and the email says when it is done.
    expect(await readyEmails.isChecked()).toBe(true);

    await page.getByLabel("Display name").fill("Ada");
    await page.getByLabel("Time zone").selectOption("Europe/Paris");
    await readyEmails.uncheck();
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Profile saved.").waitFor();

    await page.reload();
    expect(await page.getByLabel("Display name").inputValue()).toBe("Ada");
    expect(await page.getByLabel("Time zone").inputValue()).toBe("Europe/Paris");
    expect(await readyEmails.isChecked()).toBe(false);

    // Ticked again, it is saved as on.
    await readyEmails.check();
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Profile saved.").waitFor();
    await page.reload();
    expect(await readyEmails.isChecked()).toBe(true);
    await page.goto(`${appUrl}/dashboard`);
    await page.getByRole("heading", { name: "Welcome, Ada" }).waitFor();
  });

  it("keeps what the creator typed when the save is refused (the profile changed in another tab)", async () => {
    const page = await browser.context.newPage();
    await signInAsNewCreator(page, { appUrl, outboxPath, email: `settings-${randomUUID()}@example.test` });
    await page.goto(`${appUrl}/settings`);
    const otherTab = await browser.context.newPage();
    await otherTab.goto(`${appUrl}/settings`);
    await otherTab.getByLabel("Display name").fill("Ada");
    await otherTab.getByRole("button", { name: "Save profile" }).click();
    await otherTab.getByText("Profile saved.").waitFor();
    await otherTab.close();

    // This page still holds the older profile: its save is a conflict.
    const readyEmails = page.getByLabel("Email me when a video's clips are ready");
    await page.getByLabel("Display name").fill("Grace");
    await page.getByLabel("Time zone").selectOption("Asia/Tokyo");
    await readyEmails.uncheck();
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Your profile was changed elsewhere. Reload the page and try again.").waitFor();
    expect(await page.getByText("Profile saved.").count()).toBe(0);
    expect(await page.getByLabel("Display name").inputValue()).toBe("Grace");
    expect(await page.getByLabel("Time zone").inputValue()).toBe("Asia/Tokyo");
    expect(await readyEmails.isChecked()).toBe(false);
    await page.close();
  });

  it("shows the saved time zone after saving, without a reload", async () => {
    const page = await browser.context.newPage();
    await signInAsNewCreator(page, { appUrl, outboxPath, email: `settings-${randomUUID()}@example.test` });
    await page.goto(`${appUrl}/settings`);
    await page.getByLabel("Time zone").selectOption("America/New_York");
    await page.getByRole("button", { name: "Save profile" }).click();
    await page.getByText("Profile saved.").waitFor();
    expect(await page.getByLabel("Time zone").inputValue()).toBe("America/New_York");
    await page.close();
  });
});
