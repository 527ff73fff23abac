import { describe, expect, it } from "vitest";
import { hasSessionCookie, readSessionToken } from "./session-cookie";

const token = "A".repeat(43);

describe("readSessionToken", () => {
  it("reads the http cookie name", () => {
    expect(readSessionToken(`theme=dark; authjs.session-token=${token}`)).toBe(token);
  });

  it("reads the https cookie name", () => {
    expect(readSessionToken(`__Secure-authjs.session-token=${token}`)).toBe(token);
  });

  it("ignores look-alike names and malformed values", () => {
    expect(readSessionToken(`xauthjs.session-token=${token}`)).toBeNull();
    expect(readSessionToken("authjs.session-token=short")).toBeNull();
    expect(readSessionToken(`authjs.session-token=${"a".repeat(20)};x`)).toBe("a".repeat(20));
    expect(readSessionToken("authjs.session-token=has spaces and ; semicolons")).toBeNull();
    expect(readSessionToken(null)).toBeNull();
  });
});

describe("hasSessionCookie", () => {
  it("sees either cookie name", () => {
    expect(hasSessionCookie("authjs.session-token=x")).toBe(true);
    expect(hasSessionCookie("a=1; __Secure-authjs.session-token=x")).toBe(true);
    expect(hasSessionCookie("authjs.csrf-token=x")).toBe(false);
    expect(hasSessionCookie(undefined)).toBe(false);
  });
});
