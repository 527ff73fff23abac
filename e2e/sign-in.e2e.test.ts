import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser, type TestBrowser } from "./support/browser";
import { waitForLinkInOutbox } from "./support/outbox";
import "./support/provided-context";
import { openSignInLink } from "./support/sign-in";

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

const hasSessionCookie = async (context: TestBrowser["context"]) =>
  (await context.cookies(appUrl)).some((cookie) => cookie.name === "authjs.session-token");

/** Asks for a sign-in link the way the login page does, and returns the emailed link. */
async function requestSignInLink(email: string, callbackUrl = "/dashboard"): Promise<string> {
  const response = await fetch(`${appUrl}/api/auth/signin/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, callbackUrl }),
  });
  expect(response.status).toBe(202);
  return waitForLinkInOutbox({ outboxPath, to: email });
}

describe("sign-in in Chromium", () => {
  it("dashboard → login → magic link from the outbox → confirm page button → dashboard → sign out → login again", async () => {
    const page = await browser.context.newPage();
    // Nothing a page asks for is missing (the browser asks for an icon on every page).
    const missing: string[] = [];
    page.on("response", (response) => {
      if (response.status() === 404) missing.push(response.url());
    });

    await page.goto(`${appUrl}/dashboard`);
    expect(pathOf(page.url())).toBe("/login");
    const iconHref = await page.evaluate(() =>
      document.querySelector('link[rel="icon"]')?.getAttribute("href"),
    );
    expect(iconHref).toBeTruthy();
    const icon = await page.request.get(new URL(iconHref ?? "", appUrl).href);
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toContain("image/svg+xml");
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/dashboard");

    const email = `e2e-${randomUUID()}@example.test`;
    await page.getByLabel("Email address").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();

    const link = await waitForLinkInOutbox({ outboxPath, to: email });
    expect(link.startsWith(`${appUrl}/login/confirm?`)).toBe(true);

    // The link opens a confirm page; nothing is signed in until its button is pressed. No other
    // site may show the page in a frame (to have it clicked through).
    const confirmPage = await page.goto(link);
    expect(confirmPage?.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
    expect(confirmPage?.headers()["x-frame-options"]).toBe("DENY");
    await page.getByRole("heading", { name: `Sign in as ${email}` }).waitFor();
    expect(await hasSessionCookie(browser.context)).toBe(false);
    // Pressed twice, as people do: the link is spent once and the creator is signed in.
    await page.getByRole("button", { name: "Sign in", exact: true }).dblclick();
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

    // The link worked once; confirming it again offers a new one.
    await openSignInLink(page, link);
    await page.waitForURL((url) => url.pathname === "/login/error");
    await page.getByText("This sign-in link has expired or was already used").waitFor();
    expect(missing).toEqual([]);
    await page.close();
  });

  it("a mail scanner opening the link first uses nothing up: the creator still signs in, even without JavaScript", async () => {
    const email = `scanned-${randomUUID()}@example.test`;
    const link = await requestSignInLink(email, "/videos");

    // What Safe Links, Mimecast and the like do before the creator sees the email: GET the
    // link, following redirects, and the Auth.js callback URL behind it for good measure.
    const callbackUrl = `${appUrl}/api/auth/callback/email${new URL(link).search}`;
    for (const url of [link, callbackUrl, link]) {
      const response = await fetch(url, { redirect: "follow" });
      expect(response.status, url).toBe(200);
      expect(response.headers.getSetCookie().join(), url).not.toContain("session-token");
    }

    const plainHtml = await launchBrowser({ javaScriptEnabled: false });
    try {
      const page = await plainHtml.context.newPage();
      await page.goto(link);
      // Before the fix this landed on /login/error?error=Verification: the scanner had used the link.
      expect(page.url()).toContain(`${appUrl}/login/confirm?`);
      await page.getByRole("heading", { name: `Sign in as ${email}` }).waitFor();
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL(`${appUrl}/videos`);
      expect(await hasSessionCookie(plainHtml.context)).toBe(true);
    } finally {
      await plainHtml.close();
    }
  });

  it("the confirm page refuses a link whose target leaves the site, or with parts missing, and offers a new one", async () => {
    const email = `tampered-${randomUUID()}@example.test`;
    // A real, unused token: what is refused is the target, not the token.
    const link = await requestSignInLink(email);
    const page = await browser.context.newPage();
    await page.context().clearCookies();

    for (const target of ["https://evil.example/dashboard", "//evil.example/dashboard", "/\\evil.example"]) {
      const tampered = new URL(link);
      tampered.searchParams.set("callbackUrl", target);
      await page.goto(tampered.toString());
      await page.getByText("This sign-in link points outside Truss").waitFor();
      expect(await page.locator("form").count(), target).toBe(0);
      expect(await page.getByRole("button", { name: "Sign in", exact: true }).count(), target).toBe(0);
      const back = page.getByRole("link", { name: "Request a new sign-in link" });
      expect(await back.getAttribute("href")).toBe("/login");
    }

    const incomplete = new URL(link);
    incomplete.searchParams.delete("token");
    await page.goto(incomplete.toString());
    await page.getByText("This sign-in link is incomplete").waitFor();
    expect(await page.locator("form").count()).toBe(0);

    // The refusals spent nothing: the untouched link still signs in.
    await openSignInLink(page, link);
    await page.waitForURL(`${appUrl}/dashboard`);
    await page.close();
  });

  it("a used link opened again: signed in, it offers to continue; signed out, a new link for the same email leads to the same page", async () => {
    const email = `again-${randomUUID()}@example.test`;
    const target = "/clips?sort=score&minScore=40";
    const link = await requestSignInLink(email, target);
    const page = await browser.context.newPage();
    await page.context().clearCookies();
    await openSignInLink(page, link);
    await page.waitForURL(`${appUrl}${target}`);

    // Still signed in: no button that would only report the link used.
    await page.goto(link);
    await page.getByRole("heading", { name: "You are already signed in" }).waitFor();
    expect(await page.locator("form").count()).toBe(0);
    await page.getByRole("link", { name: "Continue", exact: true }).click();
    await page.waitForURL(`${appUrl}${target}`);

    // Signed out: the used link's page asks for a new one, for the same email and the same page.
    await page.context().clearCookies();
    await openSignInLink(page, link);
    await page.waitForURL((url) => url.pathname === "/login/error");
    await page.getByText("This sign-in link has expired or was already used").waitFor();
    expect(await page.getByLabel("Email address").inputValue()).toBe(email);
    await page.getByRole("button", { name: "Email me a new link" }).click();
    await page.getByRole("heading", { name: "Check your inbox" }).waitFor();
    const newLink = await waitForLinkInOutbox({ outboxPath, to: email });
    expect(newLink).not.toBe(link);
    await openSignInLink(page, newLink);
    await page.waitForURL(`${appUrl}${target}`);
    await page.close();
  });

  it("an API route without credentials answers 401 JSON, not a redirect", async () => {
    const response = await fetch(`${appUrl}/api/tokens`, { redirect: "manual" });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
  });
});
