import { createCreator } from "@/db/repos/creator-repo";
import { createId } from "@/lib/ids";
import { readOutbox } from "@/server/mail/read-outbox";
import { type Runtime, tableOf } from "@/server/runtime";

/**
 * A creator of a test's own, with an address of its own to find in the outbox; `creatorId` names
 * the owner of a video stored before (test helpers that store one pick its creator's id).
 */
export async function createTestCreator(
  runtime: Runtime,
  options: { creatorId?: string; emailWhenClipsReady?: boolean } = {},
) {
  const { creatorId = createId("creator"), emailWhenClipsReady } = options;
  return createCreator({
    table: tableOf(runtime),
    creatorId,
    email: `${creatorId}@example.test`,
    emailWhenClipsReady,
  });
}

/** The messages in the outbox to `email`, oldest first. */
export async function emailsTo(runtime: Runtime, email: string) {
  const messages = await readOutbox({ outboxPath: runtime.config.mail.outboxPath, limit: 10_000 });
  return messages.filter((message) => message.to === email).reverse();
}
