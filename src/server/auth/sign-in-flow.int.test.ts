import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { Auth } from "@auth/core";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { isValidElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import ConfirmSignInPage from "@/app/(auth)/login/confirm/page";
import LoginErrorPage from "@/app/(auth)/login/error/page";
import { LoginForm } from "@/app/(auth)/login/login-form";
import { GET as listTokens } from "@/app/api/tokens/route";
import { emailLookupKey, rateLimitKey, sessionKey } from "@/db/keys";
import { findCreatorIdByEmail } from "@/db/repos/creator-repo";
import { OutboxMessage } from "@/mail/mail-message";
import { getRuntime, tableOf } from "@/server/runtime";
import { createAuthConfig } from "./auth-config";
import { authenticateRequest } from "./authenticate-request";
import { handleAuthGet } from "./handle-auth-get";
import { handleAuthPost } from "./handle-auth-post";
import { hashToken } from "./hash-token";
import { MAGIC_LINK_RATE_LIMITS } from "./magic-link-rate-limits";
import { CONFIRM_SIGN_IN_PATH, SIGN_IN_CALLBACK_PATH, SIGN_IN_ERROR_PATH } from "./sign-in-link";
import { signOutEverywhere } from "./sign-out-everywhere";

/**
 * The magic-link flow end to end through the route logic, the real Auth.js and the test
 * table: request → outbox → confirm page → its button (POST to the callback) → session
 * cookie → authenticated API call.
 *
 * Auth.js is called through @auth/core's `Auth` with our config, which is what next-auth's
 * `handlers` do; next-auth itself cannot be imported under vitest (its ESM build imports
 * `next/server` without an extension). The confirm page is rendered as the server renders
 * it. The browser test covers the real route file and page.
 */

// The confirm page asks who is signed in (next/headers' cookies, which only a request served by
// Next provides): here it reads the cookie the test's browser would send.
const browser = vi.hoisted(() => ({ cookie: undefined as string | undefined }));
vi.mock("next/headers", () => ({
  cookies: async () => {
    const [name, value] = browser.cookie?.split("=") ?? [];
    return { get: (wanted: string) => (name === wanted && value ? { name, value } : undefined) };
  },
  headers: async () => new Headers(),
}));

const runtime = getRuntime();
const authConfig = createAuthConfig({ runtime });
const authjs = (request: Request) => Auth(request, authConfig);
const authGet = (request: Request) => handleAuthGet(request, authjs);
const authPost = (request: Request) => handleAuthPost(request, authjs);
const table = tableOf(runtime);
const appUrl = runtime.config.appUrl;

const uniqueEmail = () => `flow-${randomUUID()}@example.test`;
// A fresh client address per test keeps per-address limits from leaking between tests.
const uniqueAddress = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

async function requestLink(
  body: unknown,
  options: { clientAddress?: string; rawBody?: string } = {},
): Promise<Response> {
  const request = new Request(`${appUrl}/api/auth/signin/email`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": options.clientAddress ?? uniqueAddress(),
    },
    body: options.rawBody ?? JSON.stringify(body),
  });
  return authPost(request);
}

/** Messages to `email`, newest first. Reads the whole file: other tests append to it too. */
async function outboxFor(email: string): Promise<OutboxMessage[]> {
  const text = await readFile(runtime.config.mail.outboxPath, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => OutboxMessage.parse(JSON.parse(line)))
    .filter((message) => message.to === email)
    .reverse();
}

async function latestLinkFor(email: string): Promise<string> {
  const [latest] = await outboxFor(email);
  const link = latest && /https?:\/\/\S+/.exec(latest.text)?.[0];
  if (!link) throw new Error(`No sign-in link in the outbox for ${email}`);
  return link;
}

function sessionCookieFrom(response: Response): string | undefined {
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith("authjs.session-token="));
  return cookie?.split(";")[0];
}

type GetAnswer = {
  status: number;
  location: string | null;
  sessionCookie: string | undefined;
  html: string;
  page?: ReactNode;
};

const PAGES: Record<string, typeof ConfirmSignInPage> = {
  [CONFIRM_SIGN_IN_PATH]: ConfirmSignInPage,
  [SIGN_IN_ERROR_PATH]: LoginErrorPage,
};

/**
 * A GET as the app answers it, for the URLs a sign-in email can lead to: the confirm page or
 * the error page (rendered as the server renders them) or /api/auth/*. What a mail scanner
 * sees, or a browser.
 */
async function get(url: string, options: { cookie?: string } = {}): Promise<GetAnswer> {
  const { pathname, searchParams } = new URL(url);
  const Page = PAGES[pathname];
  if (Page) {
    browser.cookie = options.cookie;
    try {
      const page = await Page({ searchParams: Promise.resolve(Object.fromEntries(searchParams)) });
      return {
        status: 200,
        location: null,
        sessionCookie: undefined,
        html: renderToStaticMarkup(page),
        page,
      };
    } finally {
      browser.cookie = undefined;
    }
  }
  const response = await authGet(new Request(url));
  return {
    status: response.status,
    location: response.headers.get("location"),
    sessionCookie: sessionCookieFrom(response),
    html: "",
  };
}

/** The page's POST form, as a browser reads it: its target, or undefined without one. */
function postFormActionOf(html: string): string | undefined {
  const form = /<form\b[^>]*>/.exec(html)?.[0];
  if (!form || !/\bmethod="post"/.test(form)) return undefined;
  return /\baction="([^"]*)"/.exec(form)?.[1]?.replaceAll("&amp;", "&");
}

/**
 * The props the server gave the page's LoginForm (a client component: what it posts, the
 * callbackUrl, is in its props, not in the HTML).
 */
function loginFormPropsOf(node: ReactNode): Parameters<typeof LoginForm>[0] | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = loginFormPropsOf(child);
      if (found) return found;
    }
    return undefined;
  }
  if (!isValidElement<{ children?: ReactNode }>(node)) return undefined;
  if (node.type === LoginForm) return node.props as Parameters<typeof LoginForm>[0];
  return loginFormPropsOf(node.props.children);
}

/** Submits a form as Chromium does from one of our pages: a same-origin POST, empty body. */
function submitForm(
  action: string,
  options: { origin?: string; authjs?: typeof authjs; body?: string } = {},
) {
  const request = new Request(new URL(action, appUrl), {
    method: "POST",
    headers: { origin: options.origin ?? appUrl, "content-type": "application/x-www-form-urlencoded" },
    body: options.body ?? "",
  });
  return handleAuthPost(request, options.authjs ?? authjs);
}

/** What a person does with the emailed link: open it, then press "Sign in" on the confirm page. */
async function openLink(link: string, options: { authjs?: typeof authjs } = {}): Promise<Response> {
  const page = await get(link);
  const action = postFormActionOf(page.html);
  if (!action) {
    throw new Error(
      `${link} answered ${page.status} ${page.location ?? ""} instead of the confirm page's form`,
    );
  }
  return submitForm(action, options);
}

/** Where a refused link sends the browser: the error page, told the link's email and target. */
function errorPageFor(email: string, callbackPath: string): string {
  return `${appUrl}${SIGN_IN_ERROR_PATH}?${new URLSearchParams({ error: "Verification", email, callbackUrl: callbackPath })}`;
}

async function signIn(email: string): Promise<string> {
  expect((await requestLink({ email })).status).toBe(202);
  const response = await openLink(await latestLinkFor(email));
  const cookie = sessionCookieFrom(response);
  if (!cookie) throw new Error(`Sign-in did not set a session cookie (status ${response.status})`);
  return cookie;
}

async function rateLimitCount(scope: string, subject: string): Promise<number | undefined> {
  const windowMs = MAGIC_LINK_RATE_LIMITS.perEmail.windowMs;
  const windowStartMs = Math.floor(Date.now() / windowMs) * windowMs;
  const output = await table.documentClient.send(
    new GetCommand({
      TableName: table.tableName,
      Key: rateLimitKey(scope, hashToken(subject).slice(0, 32), windowStartMs),
    }),
  );
  return output.Item?.count as number | undefined;
}

const noRoute = { params: Promise.resolve({}) as Promise<Record<string, never>> };

describe("magic-link sign-in", () => {
  it("signs a new creator in: link in the outbox, confirm page, its button sets the cookie and redirects to the callback path", async () => {
    const email = uniqueEmail();
    const response = await requestLink({
      email: `  ${email.toUpperCase()} `,
      callbackUrl: "/clips?sort=score",
    });
    expect(response.status).toBe(202);

    const [message] = await outboxFor(email);
    expect(message?.subject).toBe("Your Truss sign-in link");
    expect(message?.html).toContain("Sign in");
    const link = await latestLinkFor(email);
    expect(link.startsWith(`${appUrl}/login/confirm?`)).toBe(true);
    const page = await get(link);
    expect(page.html).toContain(`Sign in as ${email}`);
    expect(postFormActionOf(page.html)?.startsWith(`${SIGN_IN_CALLBACK_PATH}?`)).toBe(true);

    const callback = await openLink(link);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("location")).toBe(`${appUrl}/clips?sort=score`);
    const cookie = sessionCookieFrom(callback);
    expect(cookie).toBeDefined();
    // The cookie carries the token; the table only its hash.
    const token = cookie!.split("=")[1]!;
    const identity = await authenticateRequest({ runtime, headers: new Headers({ cookie: cookie! }) });
    const creatorId = await findCreatorIdByEmail({ table, normalizedEmail: email });
    expect(identity).toEqual({ creatorId, via: "session" });
    const stored = await table.documentClient.send(
      new GetCommand({ TableName: table.tableName, Key: sessionKey(token) }),
    );
    expect(stored.Item).toBeUndefined();

    const api = await listTokens(
      new Request(`${appUrl}/api/tokens`, { headers: { cookie: cookie! } }),
      noRoute,
    );
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ tokens: [] });
  });

  it("warns a browser signed in as someone else before the link switches it to another account", async () => {
    const owner = uniqueEmail();
    const ownerCookie = await signIn(owner);
    // Someone else's link reaches this browser (sent to it, to sign it into their account).
    const other = uniqueEmail();
    await requestLink({ email: other });
    const othersLink = await latestLinkFor(other);
    const warned = await get(othersLink, { cookie: ownerCookie });
    expect(warned.html).toContain(`You are signed in as ${owner}`);
    expect(warned.html).toContain(`Switch to ${other}`);
    expect(postFormActionOf(warned.html)).toBeDefined();
    // Or stay: a plain link to where the link was going, in the account they are in.
    expect(warned.html).toContain(`href="/dashboard"`);
    expect(warned.html).toContain("Continue without switching");
  });

  it("a link opened where its owner is already signed in offers to continue, and leaves the link unused", async () => {
    const owner = uniqueEmail();
    const ownerCookie = await signIn(owner);
    await requestLink({ email: owner, callbackUrl: "/clips?sort=score&minScore=40" });
    const link = await latestLinkFor(owner);

    const page = await get(link, { cookie: ownerCookie });
    expect(page.html).toContain("You are already signed in");
    expect(page.html).toContain(owner);
    expect(page.html).toContain('href="/clips?sort=score&amp;minScore=40"');
    expect(page.html).toContain(">Continue<");
    // No button that would only spend the link (or, the second time, report it used).
    expect(postFormActionOf(page.html)).toBeUndefined();
    expect(page.html).not.toContain("You are signed in as");

    // Signed out, the same link still signs in.
    const response = await openLink(link);
    expect(response.headers.get("location")).toBe(`${appUrl}/clips?sort=score&minScore=40`);
    expect(sessionCookieFrom(response)).toBeDefined();
  });

  it("accepts a link once: the second use shows the expired-or-used page", async () => {
    const email = uniqueEmail();
    await requestLink({ email });
    const link = await latestLinkFor(email);
    const first = await openLink(link);
    expect(sessionCookieFrom(first)).toBeDefined();

    const second = await openLink(link);
    expect(second.status).toBe(302);
    expect(second.headers.get("location")).toBe(errorPageFor(email, "/dashboard"));
    expect(sessionCookieFrom(second)).toBeUndefined();
  });

  it("the expired-or-used page offers a new link to the same email, leading to the link's page", async () => {
    const email = uniqueEmail();
    const target = "/clips?sort=score&minScore=40";
    await requestLink({ email, callbackUrl: target });
    const link = await latestLinkFor(email);
    const used = await openLink(link);
    expect(used.headers.get("location")).toBe(`${appUrl}${target}`);

    const refused = await openLink(link);
    const location = refused.headers.get("location")!;
    expect(location).toBe(errorPageFor(email, target));
    expect(location).not.toContain(new URL(link).searchParams.get("token"));
    // In a browser that is not (or no longer) signed in:
    const page = await get(location);
    expect(page.html).toContain("This sign-in link has expired or was already used");
    expect(page.html).toContain(`value="${email}"`);
    const form = loginFormPropsOf(page.page);
    expect(form).toMatchObject({ initialEmail: email, callbackUrl: target });

    // What the form then posts: the new link leads to the same page.
    expect((await requestLink({ email: form!.initialEmail, callbackUrl: form!.callbackUrl })).status).toBe(
      202,
    );
    const newLink = await latestLinkFor(email);
    expect(newLink).not.toBe(link);
    expect((await openLink(newLink)).headers.get("location")).toBe(`${appUrl}${target}`);
  });

  it("the expired-or-used page takes nothing unsafe from its query", async () => {
    const page = await get(
      `${appUrl}${SIGN_IN_ERROR_PATH}?${new URLSearchParams({
        error: "Verification",
        email: '"><script>alert(1)</script>',
        callbackUrl: "https://evil.example/clips",
      })}`,
    );
    expect(page.html).not.toContain("<script>");
    expect(loginFormPropsOf(page.page)).toMatchObject({ initialEmail: "", callbackUrl: "/dashboard" });
  });

  it("the expired-or-used page, seen where the link's owner is signed in (an old tab), offers to continue", async () => {
    const email = uniqueEmail();
    await requestLink({ email, callbackUrl: "/videos" });
    const link = await latestLinkFor(email);
    // The confirm page was opened (not yet signed in), then the link was used in another tab.
    const staleAction = postFormActionOf((await get(link)).html)!;
    const cookie = sessionCookieFrom(await openLink(link))!;
    const refused = await submitForm(staleAction);
    const page = await get(refused.headers.get("location")!, { cookie });
    expect(page.html).toContain("You are already signed in");
    expect(page.html).toContain('href="/videos"');
    expect(page.html).not.toContain("expired or was already used");
    // Signed in as someone else, it is the ordinary error page.
    const other = await get(refused.headers.get("location")!, { cookie: await signIn(uniqueEmail()) });
    expect(other.html).toContain("This sign-in link has expired or was already used");
  });

  it("refuses an expired link (clock moved past the lifetime) without signing in", async () => {
    const email = uniqueEmail();
    await requestLink({ email });
    const link = await latestLinkFor(email);
    const lifetimeMs = runtime.config.auth.magicLinkTtlMinutes * 60_000;
    const later = createAuthConfig({ runtime, nowMs: () => Date.now() + lifetimeMs + 1_000 });
    const response = await openLink(link, { authjs: (request) => Auth(request, later) });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(errorPageFor(email, "/dashboard"));
    expect(sessionCookieFrom(response)).toBeUndefined();
    expect(await findCreatorIdByEmail({ table, normalizedEmail: email })).toBeUndefined();
    // The expired link is gone, not merely refused once.
    expect((await openLink(link)).headers.get("location")).toBe(errorPageFor(email, "/dashboard"));
  });

  it("a link with a tampered token or email does not sign anyone in", async () => {
    const email = uniqueEmail();
    await requestLink({ email });
    const link = new URL(await latestLinkFor(email));
    const forged = new URL(link);
    forged.searchParams.set("token", "A".repeat(43));
    expect((await openLink(forged.toString())).headers.get("location")).toContain("error=Verification");
    const otherEmail = new URL(link);
    otherEmail.searchParams.set("email", uniqueEmail());
    const response = await openLink(otherEmail.toString());
    expect(response.headers.get("location")).toContain("error=Verification");
    expect(sessionCookieFrom(response)).toBeUndefined();
  });

  it("opening the emailed link spends nothing, as a mail scanner does first: the creator still signs in with the button", async () => {
    const email = uniqueEmail();
    await requestLink({ email, callbackUrl: "/videos" });
    const link = await latestLinkFor(email);
    // The scanner: GET the link, the callback URL with the same parameters, the link again.
    const callbackUrl = `${appUrl}${SIGN_IN_CALLBACK_PATH}${new URL(link).search}`;
    for (const url of [link, callbackUrl, link]) {
      expect((await get(url)).sessionCookie, url).toBeUndefined();
    }

    const response = await openLink(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${appUrl}/videos`);
    expect(sessionCookieFrom(response)).toBeDefined();
  });

  it("a GET of the callback (a scanner, or a link mailed before the confirm page) goes to the confirm page", async () => {
    const email = uniqueEmail();
    await requestLink({ email });
    const { search } = new URL(await latestLinkFor(email));
    const answer = await get(`${appUrl}${SIGN_IN_CALLBACK_PATH}${search}`);
    expect(answer).toMatchObject({ status: 303, location: `${CONFIRM_SIGN_IN_PATH}${search}` });
    expect(answer.sessionCookie).toBeUndefined();
    // Auth.js's other GET routes are still Auth.js's.
    expect((await get(`${appUrl}/api/auth/csrf`)).status).toBe(200);
  });

  it("the confirm page and its button refuse a target off the site, and a post from another site", async () => {
    const email = uniqueEmail();
    await requestLink({ email });
    const link = await latestLinkFor(email);
    const origin = new URL(appUrl).origin;

    for (const target of ["https://evil.example/dashboard", "//evil.example", "/\\evil.example"]) {
      const tampered = new URL(link);
      tampered.searchParams.set("callbackUrl", target);
      const page = await get(tampered.toString());
      expect(page.html, target).toContain("This sign-in link points outside Truss");
      expect(page.html, target).not.toContain("<form");
      expect(page.html, target).toContain('href="/login"');

      // Posting the tampered link past the page gets the page's explanation, not Auth.js.
      const posted = await submitForm(`${SIGN_IN_CALLBACK_PATH}${tampered.search}`);
      expect(posted.status, target).toBe(303);
      expect(posted.headers.get("location"), target).toBe(`${CONFIRM_SIGN_IN_PATH}${tampered.search}`);
      expect(sessionCookieFrom(posted), target).toBeUndefined();
    }
    for (const params of [{ token: null }, { email: null }, { token: "not a token" }, { email: "a@b@c" }]) {
      const broken = new URL(link);
      for (const [name, value] of Object.entries(params)) {
        if (value === null) broken.searchParams.delete(name);
        else broken.searchParams.set(name, value);
      }
      const page = await get(broken.toString());
      expect(page.html).toMatch(/This sign-in link is (incomplete|not valid)/);
      expect(postFormActionOf(page.html)).toBeUndefined();
    }

    // The real form, submitted from another site (login CSRF: signing a visitor in as someone else).
    const action = postFormActionOf((await get(link)).html)!;
    const crossSite = await submitForm(action, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect((await crossSite.json()).error.code).toBe("forbidden");
    expect(sessionCookieFrom(crossSite)).toBeUndefined();
    expect(new URL(action, origin).origin).toBe(origin);

    // None of that spent the token. Auth.js would take a target from the form's body before the
    // query's: the post is handed on without its body, so the link's checked target stands.
    const response = await submitForm(action, { body: "callbackUrl=%2Fsettings" });
    expect(response.headers.get("location")).toBe(`${appUrl}/dashboard`);
    expect(sessionCookieFrom(response)).toBeDefined();
  });

  it("answers the same for an email with and without an account", async () => {
    const known = uniqueEmail();
    await signIn(known);
    const unknown = uniqueEmail();
    const [forKnown, forUnknown] = await Promise.all([
      requestLink({ email: known }),
      requestLink({ email: unknown }),
    ]);
    expect(forKnown.status).toBe(forUnknown.status);
    expect(await forKnown.json()).toEqual(await forUnknown.json());
    expect(forKnown.status).toBe(202);
    // No account is created until the link is used.
    expect(await findCreatorIdByEmail({ table, normalizedEmail: unknown })).toBeUndefined();
  });

  it("limits requests per email with 429 and Retry-After, sending no more mail", async () => {
    const email = uniqueEmail();
    const { limit, windowMs } = MAGIC_LINK_RATE_LIMITS.perEmail;
    for (let attempt = 0; attempt < limit; attempt++) expect((await requestLink({ email })).status).toBe(202);
    const refused = await requestLink({ email });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
    expect((await refused.json()).error.code).toBe("rate_limited");
    expect(await outboxFor(email)).toHaveLength(limit);
  });

  it("counts the +aliases of one inbox together, from any client address", async () => {
    const [local, domain] = uniqueEmail().split("@");
    const { limit } = MAGIC_LINK_RATE_LIMITS.perEmail;
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= limit; attempt++) {
      const alias = `${local}+${attempt}@${domain}`;
      statuses.push((await requestLink({ email: alias }, { clientAddress: uniqueAddress() })).status);
    }
    expect(statuses.slice(0, limit).every((status) => status === 202)).toBe(true);
    expect(statuses[limit]).toBe(429);
  });

  it("limits requests per client address across different emails", async () => {
    const clientAddress = uniqueAddress();
    const { limit } = MAGIC_LINK_RATE_LIMITS.perClientAddress;
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= limit; attempt++) {
      statuses.push((await requestLink({ email: uniqueEmail() }, { clientAddress })).status);
    }
    expect(statuses.slice(0, limit).every((status) => status === 202)).toBe(true);
    expect(statuses[limit]).toBe(429);
    // Inventing an address in front of the one the proxy appended gets no fresh bucket.
    const rotated = await requestLink(
      { email: uniqueEmail() },
      { clientAddress: `${uniqueAddress()}, ${clientAddress}` },
    );
    expect(rotated.status).toBe(429);
    // Another address is unaffected.
    expect((await requestLink({ email: uniqueEmail() })).status).toBe(202);
  });

  describe("bad input gets a clear 4xx and writes nothing", () => {
    async function expectNothingWritten(email: string, clientAddress: string) {
      expect(await outboxFor(email)).toEqual([]);
      expect(await rateLimitCount("magic-email", email)).toBeUndefined();
      expect(await rateLimitCount("magic-client", clientAddress)).toBeUndefined();
      const lookup = await table.documentClient.send(
        new GetCommand({ TableName: table.tableName, Key: emailLookupKey(email) }),
      );
      expect(lookup.Item).toBeUndefined();
    }

    it.each([
      "not-an-email",
      "a@b@example.test",
      '"x@evil.example"@example.test',
      "victim@example.test,attacker@evil.example",
    ])("malformed email %j → 422", async (email) => {
      const clientAddress = uniqueAddress();
      const response = await requestLink({ email }, { clientAddress });
      expect(response.status).toBe(422);
      expect((await response.json()).error.code).toBe("validation_failed");
      await expectNothingWritten(email.toLowerCase(), clientAddress);
    });

    it.each(["https://evil.example/dashboard", "//evil.example", "/\\evil.example", "javascript:alert(1)"])(
      "open-redirect callbackUrl %j → 400",
      async (callbackUrl) => {
        const email = uniqueEmail();
        const clientAddress = uniqueAddress();
        const response = await requestLink({ email, callbackUrl }, { clientAddress });
        expect(response.status).toBe(400);
        expect((await response.json()).error.code).toBe("bad_request");
        await expectNothingWritten(email, clientAddress);
      },
    );

    it("oversized body → 413", async () => {
      const email = uniqueEmail();
      const clientAddress = uniqueAddress();
      const rawBody = JSON.stringify({ email, padding: "x".repeat(10_000) });
      const response = await requestLink(undefined, { clientAddress, rawBody });
      expect(response.status).toBe(413);
      await expectNothingWritten(email, clientAddress);
    });

    it("invalid JSON → 400", async () => {
      const clientAddress = uniqueAddress();
      const response = await requestLink(undefined, { clientAddress, rawBody: "{email:" });
      expect(response.status).toBe(400);
      expect(await rateLimitCount("magic-client", clientAddress)).toBeUndefined();
    });

    it("other sign-in endpoints that would skip the checks → 404", async () => {
      const response = await authPost(
        new Request(`${appUrl}/api/auth/signin`, { method: "POST", body: "email=a%40b.test" }),
      );
      expect(response.status).toBe(404);
    });
  });

  it("a forged session cookie is 401 on an API route and reads nothing", async () => {
    for (const name of ["authjs.session-token", "__Secure-authjs.session-token"]) {
      const response = await listTokens(
        new Request(`${appUrl}/api/tokens`, { headers: { cookie: `${name}=${"f".repeat(43)}` } }),
        noRoute,
      );
      expect(response.status).toBe(401);
      expect((await response.json()).error.code).toBe("unauthorized");
    }
  });

  it("sign out ends the session; sign out everywhere ends all of them", async () => {
    const email = uniqueEmail();
    const first = await signIn(email);
    const second = await signIn(email);
    const third = await signIn(email);
    const authenticated = async (cookie: string) =>
      (await authenticateRequest({ runtime, headers: new Headers({ cookie }) })) !== null;
    expect(await authenticated(first)).toBe(true);

    // Sign out of one browser through Auth.js's own endpoint (CSRF double-submit).
    const csrf = await authGet(new Request(`${appUrl}/api/auth/csrf`));
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
    const signOut = await authPost(
      new Request(`${appUrl}/api/auth/signout`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${first}; ${csrfCookie}` },
        body: new URLSearchParams({ csrfToken, callbackUrl: "/login" }),
      }),
    );
    expect(signOut.status).toBe(302);
    expect(await authenticated(first)).toBe(false);
    expect(await authenticated(second)).toBe(true);

    const creatorId = (await findCreatorIdByEmail({ table, normalizedEmail: email }))!;
    expect(await signOutEverywhere({ runtime, creatorId })).toBe(2);
    expect(await authenticated(second)).toBe(false);
    expect(await authenticated(third)).toBe(false);
  });

  it("an expired session no longer authenticates, whatever TTL has done", async () => {
    const cookie = await signIn(uniqueEmail());
    const afterExpiry = Date.now() + runtime.config.auth.sessionTtlDays * 86_400_000 + 1_000;
    expect(
      await authenticateRequest({ runtime, headers: new Headers({ cookie }), nowMs: afterExpiry }),
    ).toBeNull();
  });
});
