import "server-only";
import type { Config } from "@/config";
import { sendMail } from "@/server/mail/send-mail";
import { renderMagicLinkEmail } from "./render-magic-link-email";

/**
 * Sends the sign-in email (Auth.js's `sendVerificationRequest`). Without SMTP the link is
 * also printed to the terminal, so a local run needs no mail setup at all.
 */
export async function sendMagicLink(options: {
  config: Pick<Config, "mail" | "auth" | "nodeEnv">;
  to: string;
  url: string;
  log?: (line: string) => void;
}): Promise<void> {
  const { config, to, url } = options;
  const message = renderMagicLinkEmail({ to, url, expiresInMinutes: config.auth.magicLinkTtlMinutes });
  const delivery = await sendMail({ mail: config.mail, message });
  // Tests read the outbox; printing hundreds of links would only bury real failures.
  if (delivery === "outbox" && config.nodeEnv !== "test") {
    const log = options.log ?? ((line: string) => console.log(line));
    log(`[truss] sign-in link for ${to} (no SMTP configured; also in ${config.mail.outboxPath}):\n  ${url}`);
  }
}
