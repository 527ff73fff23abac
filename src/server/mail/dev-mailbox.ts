import type { Config } from "@/config";

export const DEV_MAILBOX_PATH = "/dev/mail";

/**
 * The development mailbox page exists only in development mode and only when mail goes to
 * the local outbox; with SMTP, or in production mode, it is a 404.
 */
export function isDevMailboxEnabled(config: Pick<Config, "nodeEnv" | "mail">): boolean {
  return config.nodeEnv !== "production" && !config.mail.smtpUrl;
}

export function devMailboxPathFor(config: Pick<Config, "nodeEnv" | "mail">): string | undefined {
  return isDevMailboxEnabled(config) ? DEV_MAILBOX_PATH : undefined;
}
