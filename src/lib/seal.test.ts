import { describe, expect, it } from "vitest";
import { seal, unseal } from "./seal";

describe("seal", () => {
  const secret = "x".repeat(32);

  it("round-trips and never repeats a ciphertext", () => {
    const first = seal(secret, "ya29.token");
    expect(unseal(secret, first)).toBe("ya29.token");
    expect(seal(secret, "ya29.token")).not.toBe(first);
    expect(first).not.toContain("ya29");
  });

  it("refuses a tampered value or the wrong secret", () => {
    const sealed = seal(secret, "refresh-token");
    const parts = sealed.split(".");
    const tampered = [...parts.slice(0, 3), `${parts[3]!.slice(0, -2)}AA`].join(".");
    expect(() => unseal(secret, tampered)).toThrow();
    expect(() => unseal("y".repeat(32), sealed)).toThrow();
  });
});
