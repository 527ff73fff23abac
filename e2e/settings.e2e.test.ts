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
});
