import { readFile } from "node:fs/promises";

type OutboxLine = { to: string; subject: string; text: string; html: string; sentAt: string };

/** Waits for the newest message to `to` in the outbox and returns the first link in its text. */
export async function waitForLinkInOutbox(options: {
  outboxPath: string;
  to: string;
  timeoutMs?: number;
}): Promise<string> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  while (Date.now() < deadline) {
    const link = await latestLink(options.outboxPath, options.to);
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No message to ${options.to} appeared in ${options.outboxPath}`);
}

async function latestLink(outboxPath: string, to: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(outboxPath, "utf8");
  } catch {
    return undefined;
  }
  const messages = text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as OutboxLine];
      } catch {
        return [];
      }
    })
    .filter((message) => message.to === to);
  const newest = messages.at(-1);
  return newest ? /https?:\/\/\S+/.exec(newest.text)?.[0] : undefined;
}
