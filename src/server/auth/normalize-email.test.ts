import { describe, expect, it } from "vitest";
import { EmailAddress, normalizeEmail } from "./normalize-email";

describe("normalizeEmail", () => {
  it("folds case and surrounding whitespace into one form", () => {
    expect(normalizeEmail("  Ada.Lovelace@Example.COM \n")).toBe("ada.lovelace@example.com");
  });

  it("maps full-width look-alikes to ASCII before anything else sees them", () => {
    expect(normalizeEmail("ａｄａ＠example.com")).toBe("ada@example.com");
  });
});

describe("EmailAddress", () => {
  it("accepts and normalizes a valid address", () => {
    expect(EmailAddress.parse(" Creator@Example.com ")).toBe("creator@example.com");
  });

  it.each([
    "",
    "not-an-email",
    "two@@example.com",
    "a@b@example.com",
    '"attacker@evil.example"@victim.example',
    "victim@example.com,attacker@evil.example",
    "space in@example.com",
    `${"a".repeat(250)}@example.com`,
  ])("refuses %j", (value) => {
    expect(EmailAddress.safeParse(value).success).toBe(false);
  });

  it("refuses a non-string", () => {
    expect(EmailAddress.safeParse(42).success).toBe(false);
  });
});
