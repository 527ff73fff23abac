import "server-only";
import type { Config } from "@/config";
import { sendMail } from "@/mail/send-mail";
import { renderMagicLinkEmail } from "./render-magic-link-email";
import { toEmailedSignInUrl } from "./sign-in-link";

/**
 * Sends the sign-in email (Auth.js's `sendVerificationRequest`). `url` is Auth.js's callback,
 * which spends the token; the email links to our confirm page instead, so a mail scanner
 * opening the link spends nothing (see sign-in-link.ts). Without SMTP the link is also
 * printed to the terminal, so a local run needs no mail setup at all.
 */
export async function sendMagicLink(options: {
  config: Pick<Config, "mail" | "auth" | "nodeEnv">;
  to: string;
  /** Auth.js's callback URL for the new token. */
  url: string;
  log?: (line: string) => void;
}): Promise<void> {
  const { config, to } = options;
  const url = toEmailedSignInUrl(options.url);
  const message = renderMagicLinkEmail({ to, url, expiresInMinutes: config.auth.magicLinkTtlMinutes });
  const delivery = await sendMail({ mail: config.mail, message });
  // Tests read the outbox; printing hundreds of links would only bury real failures.
  if (delivery === "outbox" && config.nodeEnv !== "test") {
    const log = options.log ?? ((line: string) => console.log(line));
    log(`[truss] sign-in link for ${to} (no SMTP configured; also in ${config.mail.outboxPath}):\n  ${url}`);
  }
}
