import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { createTransport, type Transporter } from "nodemailer";
import type { Config } from "@/config";
import { formatCount } from "@/lib/format-count";
import type { MailMessage, OutboxMessage } from "./mail-message";

export type MailDelivery = "smtp" | "outbox";

const transports = new Map<string, Transporter>();

/**
 * How long an SMTP server may take, in place of nodemailer's 2 minutes to connect and 10 of
 * silence: a sign-in request waits for its email, and a worker's job for the one that says a
 * video is done, so a server that stopped answering must fail fast. Query parameters of
 * `SMTP_URL` (`?greetingTimeout=…`) still override them.
 */
export const SMTP_TIMEOUTS_MS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * The URL with the timeouts it does not set itself, as query parameters: nodemailer builds a
 * transport given a URL from the URL alone, ignoring options passed beside it.
 */
function withDefaultTimeouts(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [name, milliseconds] of Object.entries(SMTP_TIMEOUTS_MS)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(milliseconds));
  }
  return url.toString();
}

/**
 * Sends through SMTP when `SMTP_URL` is set. Otherwise (the embedded default) the message is
 * appended as one JSON line to the outbox file, which the dev mail page and the browser tests
 * read; nothing leaves the machine.
 */
export async function sendMail(options: {
  mail: Config["mail"];
  message: MailMessage;
  now?: Date;
}): Promise<MailDelivery> {
  const { mail, message } = options;
  if (mail.smtpUrl) {
    let transport = transports.get(mail.smtpUrl);
    if (!transport) {
      transport = createTransport(withDefaultTimeouts(mail.smtpUrl));
      transports.set(mail.smtpUrl, transport);
    }
    const result = await transport.sendMail({ from: mail.from, ...message });
    const failed = [...(result.rejected ?? []), ...(result.pending ?? [])];
    if (failed.length > 0)
      throw new Error(`The mail server refused ${formatCount(failed.length, "recipient")}.`);
    return "smtp";
  }
  const line: OutboxMessage = { ...message, sentAt: (options.now ?? new Date()).toISOString() };
  await mkdir(path.dirname(mail.outboxPath), { recursive: true });
  // One write per message with O_APPEND: concurrent senders never interleave within a line.
  await appendFile(mail.outboxPath, `${JSON.stringify(line)}\n`, { encoding: "utf8", mode: 0o600 });
  return "outbox";
}
