import { readFile } from "node:fs/promises";

type OutboxLine = { to: string; subject: string; text: string; html: string; sentAt: string };

/** Waits for the newest message to `to` whose subject matches, and returns it. */
export async function waitForEmail(options: {
  outboxPath: string;
  to: string;
  subject: RegExp;
  timeoutMs?: number;
}): Promise<OutboxLine> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    const messages = await readMessages(options.outboxPath);
    const newest = messages
      .filter((message) => message.to === options.to && options.subject.test(message.subject))
      .at(-1);
    if (newest) return newest;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `No message to ${options.to} with a subject like ${options.subject} in ${options.outboxPath}`,
  );
}

/**
 * Waits for the newest sign-in email to `to` and returns the first link in its text (the same
 * address also gets an email when a video it uploaded is done).
 */
export async function waitForLinkInOutbox(options: {
  outboxPath: string;
  to: string;
  timeoutMs?: number;
}): Promise<string> {
  const message = await waitForEmail({ ...options, subject: /sign-in link/ });
  const link = /https?:\/\/\S+/.exec(message.text)?.[0];
  if (!link) throw new Error(`The sign-in email to ${options.to} has no link`);
  return link;
}

async function readMessages(outboxPath: string): Promise<OutboxLine[]> {
  let text: string;
  try {
    text = await readFile(outboxPath, "utf8");
  } catch {
    return [];
  }
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as OutboxLine];
      } catch {
        return [];
      }
    });
}
