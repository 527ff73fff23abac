import { describe, expect, it } from "vitest";
import { EmailAddress, inboxOf, normalizeEmail } from "./normalize-email";

describe("normalizeEmail", () => {
  it("folds case and surrounding whitespace into one form", () => {
    expect(normalizeEmail("  Ada.Lovelace@Example.COM \n")).toBe("ada.lovelace@example.com");
  });

  it("maps full-width look-alikes to ASCII before anything else sees them", () => {
    expect(normalizeEmail("ａｄａ＠example.com")).toBe("ada@example.com");
  });
});

describe("inboxOf", () => {
  it("drops a +tag, and Gmail's dots, so aliases of one inbox share its rate limit", () => {
    expect(inboxOf("victim+1@example.com")).toBe("victim@example.com");
    expect(inboxOf("v.i.c.t.i.m+spam@googlemail.com")).toBe("victim@gmail.com");
    expect(inboxOf("first.last@example.com")).toBe("first.last@example.com");
    // A leading + is the whole local part, not a tag.
    expect(inboxOf("+ops@example.com")).toBe("+ops@example.com");
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
