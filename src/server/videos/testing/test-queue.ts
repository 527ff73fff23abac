import { CreateQueueCommand, DeleteQueueCommand, ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import { getQueueUrl } from "@/queue/queue-url";
import type { Runtime } from "@/server/runtime";
import { JobMessage } from "@/worker/catalog";

/**
 * A queue of a test file's own, so the jobs it enqueues are neither run by another file's
 * worker nor mixed with another file's messages; the test reads back what was enqueued.
 */
export function testQueueName(label: string): string {
  return `truss-test-${label}-${process.pid}-${Date.now()}`;
}

export async function createTestQueue(runtime: Runtime): Promise<void> {
  await runtime.clients.sqs.send(new CreateQueueCommand({ QueueName: runtime.config.aws.queueName }));
}

export async function deleteTestQueue(runtime: Runtime): Promise<void> {
  const queueUrl = await getQueueUrl(runtime.clients.sqs, runtime.config.aws.queueName);
  await runtime.clients.sqs.send(new DeleteQueueCommand({ QueueUrl: queueUrl }));
}

/** Takes every message now on the queue (deleting none: they stay invisible for a minute). */
export async function drainJobs(runtime: Runtime): Promise<JobMessage[]> {
  const queueUrl = await getQueueUrl(runtime.clients.sqs, runtime.config.aws.queueName);
  const jobs: JobMessage[] = [];
  for (;;) {
    const output = await runtime.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        VisibilityTimeout: 60,
      }),
    );
    const messages = output.Messages ?? [];
    if (messages.length === 0) return jobs;
    for (const message of messages) jobs.push(JobMessage.parse(JSON.parse(message.Body ?? "{}")));
  }
}
