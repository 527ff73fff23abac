import { describe, expect, it } from "vitest";
import { clientAddressOf } from "./client-address";

const headers = (values: Record<string, string>) => new Headers(values);

describe("clientAddressOf", () => {
  it("keys on the entry the outermost trusted proxy appended, not on what the client sent", () => {
    const spoofed = headers({ "x-forwarded-for": "203.0.113.9, 198.51.100.7" });
    expect(clientAddressOf(spoofed, 1)).toBe("198.51.100.7");
    expect(clientAddressOf(headers({ "x-forwarded-for": "1.1.1.1, 198.51.100.7, 10.0.0.2" }), 2)).toBe(
      "198.51.100.7",
    );
  });

  it("reads a single entry (Next's own, from the socket) and falls back to x-real-ip", () => {
    expect(clientAddressOf(headers({ "x-forwarded-for": " 192.0.2.4 " }), 1)).toBe("192.0.2.4");
    expect(clientAddressOf(headers({ "x-forwarded-for": "192.0.2.4" }), 3)).toBe("192.0.2.4");
    expect(clientAddressOf(headers({ "x-real-ip": "192.0.2.5" }), 1)).toBe("192.0.2.5");
    expect(clientAddressOf(headers({ "x-forwarded-for": " , " }), 1)).toBe("unknown");
    expect(clientAddressOf(headers({}), 1)).toBe("unknown");
  });
});
