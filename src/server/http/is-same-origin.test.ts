import { describe, expect, it } from "vitest";
import { isSameOrigin } from "./is-same-origin";

const appUrl = "https://truss.example";
const post = (headers: Record<string, string>, url = "http://10.0.0.5:3000/api/x") =>
  new Request(url, { method: "POST", headers });

describe("isSameOrigin", () => {
  it("accepts our public origin, or the host the request was sent to", () => {
    expect(isSameOrigin(post({ origin: "https://truss.example" }), appUrl)).toBe(true);
    expect(isSameOrigin(post({ origin: "http://10.0.0.5:3000", host: "10.0.0.5:3000" }), appUrl)).toBe(true);
  });

  it("refuses another site, an opaque origin, and a forwarded host the client chose", () => {
    expect(isSameOrigin(post({ origin: "https://evil.example" }), appUrl)).toBe(false);
    expect(isSameOrigin(post({ origin: "null" }), appUrl)).toBe(false);
    expect(
      isSameOrigin(post({ origin: "https://evil.example", "x-forwarded-host": "evil.example" }), appUrl),
    ).toBe(false);
  });

  it("without Origin, refuses only what the browser marks cross-site", () => {
    expect(isSameOrigin(post({}), appUrl)).toBe(true);
    expect(isSameOrigin(post({ "sec-fetch-site": "same-origin" }), appUrl)).toBe(true);
    expect(isSameOrigin(post({ "sec-fetch-site": "cross-site" }), appUrl)).toBe(false);
  });
});
