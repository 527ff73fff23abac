import { describe, expect, it } from "vitest";
import { displayPrefixOf, generateApiToken, looksLikeApiToken, readBearerToken } from "./api-token-format";

describe("API token format", () => {
  it("generates distinct, recognisable 256-bit tokens", () => {
    const first = generateApiToken();
    const second = generateApiToken();
    expect(first).not.toBe(second);
    expect(looksLikeApiToken(first)).toBe(true);
    expect(first).toMatch(/^truss_[A-Za-z0-9_-]{43}$/);
    expect(displayPrefixOf(first)).toBe(`${first.slice(0, 10)}…`);
  });

  it("rejects anything else", () => {
    expect(looksLikeApiToken("truss_short")).toBe(false);
    expect(looksLikeApiToken(`other_${"a".repeat(43)}`)).toBe(false);
  });
});

describe("readBearerToken", () => {
  it("distinguishes no header, a malformed header and a token", () => {
    expect(readBearerToken(null)).toBeUndefined();
    expect(readBearerToken("Basic abc")).toBeNull();
    expect(readBearerToken("Bearer")).toBeNull();
    expect(readBearerToken("Bearer a b")).toBeNull();
    expect(readBearerToken("bearer  tok ")).toBe("tok");
  });
});
