import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { createTransport, type Transporter } from "nodemailer";
import type { Config } from "@/config";
import { formatCount } from "@/lib/format-count";
import type { MailMessage, OutboxMessage } from "./mail-message";

export type MailDelivery = "smtp" | "outbox";

const transports = new Map<string, Transporter>();

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
      transport = createTransport(mail.smtpUrl);
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
