import { SendMessageCommand } from "@aws-sdk/client-sqs";
import type { Runtime } from "@/server/runtime";
import { JOB_CATALOG, type JobMessage, type JobName, type JobPayload } from "@/worker/catalog";
import { getQueueUrl } from "./queue-url";

/** Puts a job on the queue. The payload is validated here, so a bad job never reaches a worker. */
export async function enqueueJob<Name extends JobName>(
  { config, clients }: Pick<Runtime, "config" | "clients">,
  name: Name,
  payload: JobPayload<Name>,
  options: { delaySeconds?: number } = {},
): Promise<void> {
  const message: JobMessage = {
    name,
    payload: JOB_CATALOG[name].payload.parse(payload),
    enqueuedAt: new Date().toISOString(),
  };
  await clients.sqs.send(
    new SendMessageCommand({
      QueueUrl: await getQueueUrl(clients.sqs, config.aws.queueName),
      MessageBody: JSON.stringify(message),
      // SQS caps a delay at 15 minutes.
      DelaySeconds:
        options.delaySeconds === undefined ? undefined : Math.min(900, Math.max(0, options.delaySeconds)),
    }),
  );
}
