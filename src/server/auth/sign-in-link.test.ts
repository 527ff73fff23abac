import { describe, expect, it } from "vitest";
import {
  CONFIRM_SIGN_IN_PATH,
  confirmSignInPathFor,
  readSignInLink,
  readSignInRetry,
  SIGN_IN_CALLBACK_PATH,
  signInCallbackPathFor,
  toEmailedSignInUrl,
  withSignInLinkOnErrorPage,
} from "./sign-in-link";

const origin = "http://localhost:3000";
const token = "zooOvH8t7V45qN4vJHph0jhpKYeM8bTLF8L5aH43n6c";
// What Auth.js hands sendVerificationRequest: an absolute callbackUrl, then token and email.
const verificationUrl = `${origin}/api/auth/callback/email?${new URLSearchParams({
  callbackUrl: `${origin}/clips?sort=score`,
  token,
  email: "a@b.test",
})}`;

const query = (params: Record<string, string>) => new URLSearchParams(params);

describe("toEmailedSignInUrl", () => {
  it("links to the confirm page on the same origin, with Auth.js's parameters unchanged", () => {
    const emailed = new URL(toEmailedSignInUrl(verificationUrl));
    expect(emailed.origin).toBe(origin);
    expect(emailed.pathname).toBe(CONFIRM_SIGN_IN_PATH);
    expect(Object.fromEntries(emailed.searchParams)).toEqual(
      Object.fromEntries(new URL(verificationUrl).searchParams),
    );
  });

  it("refuses anything but the magic-link callback", () => {
    expect(() => toEmailedSignInUrl(`${origin}/api/auth/signin/email?token=${token}`)).toThrow(
      SIGN_IN_CALLBACK_PATH,
    );
  });
});

describe("readSignInLink", () => {
  it("reads an emailed link: the after-sign-in target becomes a path on this site", () => {
    const emailed = new URL(toEmailedSignInUrl(verificationUrl));
    expect(readSignInLink(emailed.searchParams, origin)).toEqual({
      ok: true,
      link: { token, email: "a@b.test", callbackPath: "/clips?sort=score" },
    });
  });

  it("sends a link without a target to the dashboard", () => {
    expect(readSignInLink(query({ token, email: "a@b.test" }), origin)).toEqual({
      ok: true,
      link: { token, email: "a@b.test", callbackPath: "/dashboard" },
    });
  });

  it.each<Record<string, string>>([{}, { email: "a@b.test" }, { token }, { token: "", email: "a@b.test" }])(
    "calls %j incomplete",
    (params) => {
      expect(readSignInLink(query(params), origin)).toEqual({ ok: false, problem: "incomplete" });
    },
  );

  it.each([
    { token: "short", email: "a@b.test" },
    { token: `${token.slice(0, 40)}<x>`, email: "a@b.test" },
    { token, email: "not-an-email" },
    { token, email: "a@b.test,c@evil.example" },
  ])("calls %j malformed", (params) => {
    expect(readSignInLink(query(params), origin)).toEqual({ ok: false, problem: "malformed" });
  });

  it.each([
    "https://evil.example/dashboard",
    "//evil.example/dashboard",
    "/\\evil.example",
    "javascript:alert(1)",
    "http://localhost:3001/dashboard",
    "http://localhost:3000//evil.example",
  ])("refuses the off-site target %j instead of replacing it", (callbackUrl) => {
    expect(readSignInLink(query({ token, email: "a@b.test", callbackUrl }), origin)).toEqual({
      ok: false,
      problem: "off_site_target",
    });
  });
});

describe("signInCallbackPathFor", () => {
  it("is always this site's callback path, and carries the link back unchanged", () => {
    const link = { token, email: "a@b.test", callbackPath: "/clips?a=1&token=other#x" };
    const path = signInCallbackPathFor(link);
    expect(path.startsWith(`${SIGN_IN_CALLBACK_PATH}?`)).toBe(true);
    const target = new URL(path, origin);
    expect(target.origin).toBe(origin);
    expect(readSignInLink(target.searchParams, origin)).toEqual({ ok: true, link });
  });
});

describe("confirmSignInPathFor", () => {
  it("keeps the link's three parameters and nothing else", () => {
    const path = confirmSignInPathFor(
      query({ token, email: "a@b.test", callbackUrl: "/x", url: "https://evil" }),
    );
    expect(path).toBe(`${CONFIRM_SIGN_IN_PATH}?callbackUrl=%2Fx&token=${token}&email=a%40b.test`);
    expect(confirmSignInPathFor(query({}))).toBe(CONFIRM_SIGN_IN_PATH);
  });
});

describe("withSignInLinkOnErrorPage", () => {
  const link = { token, email: "a@b.test", callbackPath: "/clips?sort=score&minScore=40" };

  it("adds the link's email and target to Auth.js's error page, never its token", () => {
    const location = withSignInLinkOnErrorPage(`${origin}/login/error?error=Verification`, link, origin);
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(`${origin}/login/error`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      error: "Verification",
      email: "a@b.test",
      callbackUrl: "/clips?sort=score&minScore=40",
    });
    expect(location).not.toContain(token);
  });

  it.each([
    `${origin}/clips?sort=score`,
    `${origin}/login/error/other`,
    "https://evil.example/login/error?error=Verification",
  ])("leaves any other redirect alone: %s", (location) => {
    expect(withSignInLinkOnErrorPage(location, link, origin)).toBe(location);
  });
});

describe("readSignInRetry", () => {
  it("keeps a refused link's email and on-site target", () => {
    expect(readSignInRetry({ email: "A@B.test", callbackUrl: "/clips?sort=score&minScore=40" })).toEqual({
      email: "a@b.test",
      callbackPath: "/clips?sort=score&minScore=40",
    });
  });

  it("without them, prefills nothing and goes to the dashboard", () => {
    expect(readSignInRetry({})).toEqual({ email: null, callbackPath: "/dashboard" });
  });

  it.each([
    { email: "not-an-email", callbackUrl: "https://evil.example/dashboard" },
    { email: "a@b.test,c@evil.example", callbackUrl: "//evil.example" },
    { email: `${"x".repeat(400)}@b.test`, callbackUrl: "/\\evil.example" },
    { email: '"><script>@b.test', callbackUrl: "javascript:alert(1)" },
  ])("drops what a hand-written query makes up: %j", (query) => {
    expect(readSignInRetry(query)).toEqual({ email: null, callbackPath: "/dashboard" });
  });
});
