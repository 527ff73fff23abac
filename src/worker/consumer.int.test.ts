import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueJob } from "@/queue/enqueue-job";
import { getQueueUrl } from "@/queue/queue-url";
import { MAX_RECEIVES_BEFORE_DLQ, provisionResources } from "../../dev/provision";
import { testRuntime } from "../../dev/test/runtime";
import { JOB_CATALOG, type JobName } from "./catalog";
import { type HandlerRegistry, startConsumer } from "./consumer";
import type { JobHandler } from "./job-types";

/**
 * The consumer against the local SQS, on a queue of its own (the same redrive policy as the
 * real one), with stand-in handlers: what it does with messages, not what jobs do.
 */
const runtime = testRuntime({
  TRUSS_QUEUE_NAME: `truss-consumer-${process.pid}`,
  TRUSS_DLQ_NAME: `truss-consumer-dlq-${process.pid}`,
});

/** Every job kind runs `run`; the test enqueues only analyze-video (concurrency 1). */
function registry(run: JobHandler<"analyze-video">["run"]): HandlerRegistry {
  const handler = { run } as JobHandler<JobName>;
  return Object.fromEntries(
    Object.keys(JOB_CATALOG).map((name) => [name, async () => handler]),
  ) as unknown as HandlerRegistry;
}

async function messagesIn(queueName: string): Promise<number> {
  const { Attributes } = await runtime.clients.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: await getQueueUrl(runtime.clients.sqs, queueName),
      AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
    }),
  );
  return (
    Number(Attributes?.ApproximateNumberOfMessages) +
    Number(Attributes?.ApproximateNumberOfMessagesNotVisible)
  );
}

describe("startConsumer", () => {
  beforeAll(async () => {
    const { clients, config } = runtime;
    await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  });

  afterAll(() => runtime.clients.sqs.destroy());

  it("defers a job whose kind is busy here without using up its receives or attempts", async () => {
    const runs: { videoId: string; attempt: number }[] = [];
    const logs: string[] = [];
    let finishFirst = () => {};
    const firstRuns = new Promise<void>((resolve) => {
      finishFirst = resolve;
    });
    const consumer = startConsumer({
      runtime,
      concurrency: 2,
      waitTimeSeconds: 1,
      deferSeconds: 1,
      log: (text) => logs.push(text),
      handlers: registry(async ({ videoId }, { attempt }) => {
        runs.push({ videoId, attempt });
        if (videoId === "vid_first") await firstRuns;
      }),
    });
    try {
      await enqueueJob(runtime, "analyze-video", { creatorId: "cr_test", videoId: "vid_first" });
      await expect.poll(() => runs.length, { timeout: 10_000 }).toBe(1);
      await enqueueJob(runtime, "analyze-video", { creatorId: "cr_test", videoId: "vid_second" });
      // More waits than the redrive policy allows receives: handed back each time, the second
      // job would now be in the dead-letter queue.
      const deferrals = () => logs.filter((text) => text.includes("deferred")).length;
      await expect
        .poll(deferrals, { timeout: 30_000, interval: 200 })
        .toBeGreaterThan(MAX_RECEIVES_BEFORE_DLQ);
      expect(runs).toEqual([{ videoId: "vid_first", attempt: 1 }]);
      finishFirst();
      await expect.poll(() => runs.length, { timeout: 15_000 }).toBe(2);
      expect(runs[1]).toEqual({ videoId: "vid_second", attempt: 1 });
      await expect.poll(() => messagesIn(runtime.config.aws.queueName), { timeout: 10_000 }).toBe(0);
      expect(await messagesIn(runtime.config.aws.deadLetterQueueName)).toBe(0);
    } finally {
      finishFirst();
      await consumer.stop();
    }
  }, 60_000);
});
