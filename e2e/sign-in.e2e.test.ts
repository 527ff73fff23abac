import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { waitForLinkInOutbox } from "./support/outbox";
import "./support/provided-context";

const appUrl = inject("e2eAppUrl");
const outboxPath = inject("e2eOutboxPath");

let browser: TestBrowser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const pathOf = (url: string) => new URL(url).pathname;

describe("sign-in in Chromium", () => {
  it("dashboard → login → magic link from the outbox → dashboard → sign out → login again", async () => {
    const page = await browser.context.newPage();

    await page.goto(`${appUrl}/dashboard`);
    expect(pathOf(page.url())).toBe("/login");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/dashboard");

    const email = `e2e-${randomUUID()}@example.test`;
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();

    const link = await waitForLinkInOutbox({ outboxPath, to: email });
    expect(link.startsWith(`${appUrl}/api/auth/callback/email?`)).toBe(true);

    await page.goto(link);
    await page.waitForURL(`${appUrl}/dashboard`);
    await page.getByRole("heading", { name: /^Welcome/ }).waitFor();
    await page.getByText("No videos yet — upload one").waitFor();
    // A new creator has both first steps ahead, neither ticked off.
    await page.getByText("Two steps to your first clips.").waitFor();
    expect(await page.getByText("Done:", { exact: true }).count()).toBe(0);
    const cookies = await browser.context.cookies(appUrl);
    expect(cookies.some((cookie) => cookie.name === "authjs.session-token" && cookie.httpOnly)).toBe(true);
    // The proxy's slide marker (docs/auth.md), set by the real server with the session's attributes.
    const marker = cookies.find((cookie) => cookie.name === "truss.session-slide");
    expect(marker).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });

    await page.getByLabel("Account menu").click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/login");
    await page.getByText("You are signed out.").waitFor();
    expect(
      (await browser.context.cookies(appUrl)).some((cookie) => cookie.name === "authjs.session-token"),
    ).toBe(false);

    await page.goto(`${appUrl}/dashboard`);
    expect(pathOf(page.url())).toBe("/login");

    // The link worked once; opening it again offers a new one.
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === "/login/error");
    await page.getByText("This sign-in link has expired or was already used").waitFor();
    await page.close();
  });

  it("an API route without credentials answers 401 JSON, not a redirect", async () => {
    const response = await fetch(`${appUrl}/api/tokens`, { redirect: "manual" });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
  });
});
