import { describe, expect, it } from "vitest";
import { devMailboxPathFor, isDevMailboxEnabled } from "./dev-mailbox";

const mail = (smtpUrl: string | undefined) => ({ smtpUrl, from: "Truss <a@b.test>", outboxPath: "/tmp/x" });

describe("dev mailbox availability", () => {
  it("exists only in development (or test) mode without SMTP", () => {
    expect(isDevMailboxEnabled({ nodeEnv: "development", mail: mail(undefined) })).toBe(true);
    expect(devMailboxPathFor({ nodeEnv: "development", mail: mail(undefined) })).toBe("/dev/mail");
    expect(isDevMailboxEnabled({ nodeEnv: "production", mail: mail(undefined) })).toBe(false);
    expect(isDevMailboxEnabled({ nodeEnv: "development", mail: mail("smtp://mail.example:25") })).toBe(false);
    expect(
      devMailboxPathFor({ nodeEnv: "production", mail: mail("smtp://mail.example:25") }),
    ).toBeUndefined();
  });
});
