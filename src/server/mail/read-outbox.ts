import "server-only";
import { open, stat } from "node:fs/promises";
import { OutboxMessage } from "@/mail/mail-message";

/** Only the tail of a long-lived outbox is read: the newest messages are the useful ones. */
const MAX_TAIL_BYTES = 512 * 1024;

/** The newest messages of the outbox file, newest first; empty when there is no outbox yet. */
export async function readOutbox(options: { outboxPath: string; limit?: number }): Promise<OutboxMessage[]> {
  const limit = options.limit ?? 50;
  let size: number;
  try {
    size = (await stat(options.outboxPath)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const start = Math.max(0, size - MAX_TAIL_BYTES);
  const handle = await open(options.outboxPath, "r");
  let text: string;
  try {
    const buffer = Buffer.alloc(size - start);
    await handle.read(buffer, 0, buffer.length, start);
    text = buffer.toString("utf8");
  } finally {
    await handle.close();
  }
  const lines = text.split("\n");
  // A tail read may start mid-line; that first fragment is not a message.
  if (start > 0) lines.shift();
  const messages: OutboxMessage[] = [];
  for (const line of lines.reverse()) {
    if (messages.length >= limit) break;
    if (line.trim() === "") continue;
    try {
      messages.push(OutboxMessage.parse(JSON.parse(line)));
    } catch {
      // A line being written right now, or hand-edited; skip it rather than fail the page.
    }
  }
  return messages;
}
