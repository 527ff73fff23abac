import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "./proxy";

const origin = "http://localhost:3000";
const request = (path: string, headers: Record<string, string> = {}) =>
  new NextRequest(new URL(path, origin), { headers });

describe("proxy (optimistic cookie check)", () => {
  it("redirects a page without a session cookie to the login page, keeping the target", async () => {
    const response = await proxy(request("/clips?sort=score"));
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe(`${origin}/login?callbackUrl=%2Fclips%3Fsort%3Dscore`);
  });

  it("answers 401 JSON for an API route without credentials", async () => {
    const response = await proxy(request("/api/videos"));
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
  });

  it.each([
    "/",
    "/login",
    "/login/error",
    "/login/confirm?token=abc&email=a%40b.test",
    "/dev/mail",
    "/api/auth/csrf",
    "/api/auth/signin/email",
    "/api/auth/callback/email?token=abc&email=a%40b.test",
    "/api/health",
  ])("lets the public path %s through", async (path) => {
    expect((await proxy(request(path))).headers.get("x-middleware-next")).toBe("1");
  });

  it("does not treat look-alike paths as public", async () => {
    expect((await proxy(request("/loginx"))).status).toBe(307);
    expect((await proxy(request("/api/healthz"))).status).toBe(401);
    expect((await proxy(request("/api/authx"))).status).toBe(401);
  });

  it.each([
    ["authjs.session-token", "/dashboard"],
    ["__Secure-authjs.session-token", "/settings"],
  ])("passes a request with the %s cookie on to the real check", async (cookieName, path) => {
    const response = await proxy(request(path, { cookie: `${cookieName}=anything` }));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    // The requested path travels to server components as a request header.
    expect(response.headers.get("x-middleware-request-x-truss-path")).toBe(path);
  });

  it("passes an API request with a Bearer header on to the route's token check", async () => {
    const response = await proxy(request("/api/tokens", { authorization: "Bearer truss_whatever" }));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect((await proxy(request("/api/tokens", { authorization: "Basic abc" }))).status).toBe(401);
  });

  it("never lets a client-supplied path header through unchanged", async () => {
    const response = await proxy(
      request("/dashboard", { cookie: "authjs.session-token=x", "x-truss-path": "//evil" }),
    );
    expect(response.headers.get("x-middleware-request-x-truss-path")).toBe("/dashboard");
  });
});
