import { z } from "zod";

/** One message as the outbox file stores it (one JSON object per line). */
export const OutboxMessage = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  sentAt: z.string(),
});

export type OutboxMessage = z.infer<typeof OutboxMessage>;

export type MailMessage = Omit<OutboxMessage, "sentAt">;
