import { CreateQueueCommand, GetQueueAttributesCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { enqueueJob } from "@/queue/enqueue-job";
import { getQueueUrl } from "@/queue/queue-url";
import { MAX_RECEIVES_BEFORE_DLQ, provisionResources } from "../../dev/provision";
import { testRuntime } from "../../dev/test/runtime";
import { JOB_CATALOG, type JobMessage, type JobName } from "./catalog";
import { type Consumer, type HandlerRegistry, INTERRUPTED_TOO_OFTEN, startConsumer } from "./consumer";
import { JobDeferredError, type JobHandler } from "./job-types";

/**
 * The consumer against the local SQS, on a queue of its own (the same redrive policy as the
 * real one), with stand-in handlers: what it does with messages, not what jobs do.
 */
const runtime = testRuntime({
  TRUSS_QUEUE_NAME: `truss-consumer-${process.pid}`,
  TRUSS_DLQ_NAME: `truss-consumer-dlq-${process.pid}`,
});

/** Every job kind runs `run`: analyze-video has a concurrency of 1 here, ingest-video none. */
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
      AttributeNames: [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible",
        "ApproximateNumberOfMessagesDelayed",
      ],
    }),
  );
  return (
    Number(Attributes?.ApproximateNumberOfMessages) +
    Number(Attributes?.ApproximateNumberOfMessagesNotVisible) +
    Number(Attributes?.ApproximateNumberOfMessagesDelayed ?? 0)
  );
}

describe("startConsumer", () => {
  beforeAll(async () => {
    const { clients, config } = runtime;
    await provisionResources({ aws: config.aws, appOrigin: config.appUrl, ...clients });
  });

  afterAll(() => runtime.clients.sqs.destroy());

  // A stopped consumer's abandoned long poll stays open on the queue server for up to its wait
  // (1 s here) and would take the next test's first message.
  afterEach(() => new Promise((resolve) => setTimeout(resolve, 1_500)));

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

  it("stops with every slot busy, and hands the job back without counting the stop as an attempt", async () => {
    const attempts: number[] = [];
    const consumers: Consumer[] = [];
    const startOne = (run: JobHandler<"analyze-video">["run"]) => {
      const consumer = startConsumer({
        runtime,
        concurrency: 1,
        waitTimeSeconds: 1,
        shutdownGraceMs: 300,
        log: () => undefined,
        handlers: registry(run),
      });
      consumers.push(consumer);
      return consumer;
    };
    try {
      await enqueueJob(runtime, "analyze-video", { creatorId: "cr_test", videoId: "vid_restarted" });
      // More restarts than the redrive policy allows receives.
      for (let restart = 0; restart <= MAX_RECEIVES_BEFORE_DLQ; restart++) {
        // Runs until the worker stops it, as a long render would.
        const consumer = startOne(async (_payload, { attempt, signal }) => {
          attempts.push(attempt);
          await new Promise((_resolve, reject) =>
            signal.addEventListener("abort", () => reject(signal.reason)),
          );
        });
        await expect.poll(() => attempts.length, { timeout: 15_000 }).toBe(restart + 1);
        const stopStartedAt = Date.now();
        await consumer.stop();
        expect(Date.now() - stopStartedAt).toBeLessThan(5_000);
      }
      expect(attempts).toEqual(Array(MAX_RECEIVES_BEFORE_DLQ + 1).fill(1));
      expect(await messagesIn(runtime.config.aws.deadLetterQueueName)).toBe(0);
      // Still queued for the next worker, which finishes it.
      startOne(async (_payload, { attempt }) => {
        attempts.push(attempt);
      });
      await expect.poll(() => attempts.length, { timeout: 15_000 }).toBe(MAX_RECEIVES_BEFORE_DLQ + 2);
      expect(attempts.at(-1)).toBe(1);
      await expect.poll(() => messagesIn(runtime.config.aws.queueName), { timeout: 10_000 }).toBe(0);
    } finally {
      await Promise.all(consumers.map((consumer) => consumer.stop()));
    }
  }, 90_000);

  it("sends a job that finds its work held elsewhere back to the queue for when the hold lapses, its attempt uncounted", async () => {
    const runs: { attempt: number; holdMs: number; atMs: number }[] = [];
    const logs: string[] = [];
    const consumer = startConsumer({
      runtime,
      concurrency: 1,
      waitTimeSeconds: 1,
      visibilityTimeoutSeconds: 7,
      deferSeconds: 1,
      log: (text) => logs.push(text),
      handlers: registry(async (_payload, { attempt, holdMs }) => {
        runs.push({ attempt, holdMs, atMs: Date.now() });
        // Held elsewhere for 2 s more, twice; more deferrals than the redrive policy allows
        // receives would dead-letter it were they counted.
        if (runs.length <= MAX_RECEIVES_BEFORE_DLQ) throw new JobDeferredError("held elsewhere", 2);
      }),
    });
    try {
      await enqueueJob(runtime, "analyze-video", { creatorId: "cr_test", videoId: "vid_held" });
      await expect
        .poll(() => runs.length, { timeout: 60_000, interval: 200 })
        .toBe(MAX_RECEIVES_BEFORE_DLQ + 1);
      // Never counted as attempts; holds last as long as the message's visibility.
      expect(runs.map(({ attempt, holdMs }) => ({ attempt, holdMs }))).toEqual(
        Array(MAX_RECEIVES_BEFORE_DLQ + 1).fill({ attempt: 1, holdMs: 7_000 }),
      );
      // Each time tried again after the hold's 2 s, not the consumer's own 1 s deferral.
      for (const [index, run] of runs.slice(1).entries()) {
        expect(run.atMs - runs[index]!.atMs).toBeGreaterThanOrEqual(1_900);
      }
      expect(logs.filter((text) => text.includes("deferred 2 s: held elsewhere"))).toHaveLength(
        MAX_RECEIVES_BEFORE_DLQ,
      );
      await expect.poll(() => messagesIn(runtime.config.aws.queueName), { timeout: 10_000 }).toBe(0);
      expect(await messagesIn(runtime.config.aws.deadLetterQueueName)).toBe(0);
    } finally {
      await consumer.stop();
    }
  }, 90_000);

  it("gives up a job whose last attempt took its worker down, telling the handler why, when the handler is ready to", async () => {
    const runs: number[] = [];
    const givenUp: string[] = [];
    let askedToGiveUp = 0;
    const handler: JobHandler<JobName> = {
      run: async (_payload, { attempt }) => {
        runs.push(attempt);
      },
      onGiveUp: async (_payload, _context, reason) => {
        // The first time, the dead worker's hold on the video has not lapsed yet.
        if (++askedToGiveUp === 1) throw new JobDeferredError("held", 1);
        givenUp.push(reason);
      },
    };
    const consumer = startConsumer({
      runtime,
      concurrency: 1,
      waitTimeSeconds: 1,
      log: () => undefined,
      handlers: Object.fromEntries(
        Object.keys(JOB_CATALOG).map((name) => [name, async () => handler]),
      ) as unknown as HandlerRegistry,
    });
    try {
      // Every attempt made, the last one ended with no verdict (its worker was killed): this
      // receive is one beyond the job's attempts.
      const message: JobMessage = {
        name: "analyze-video",
        payload: { creatorId: "cr_test", videoId: "vid_killer" },
        enqueuedAt: new Date().toISOString(),
        earlierAttempts: JOB_CATALOG["analyze-video"].maxAttempts,
      };
      await runtime.clients.sqs.send(
        new SendMessageCommand({
          QueueUrl: await getQueueUrl(runtime.clients.sqs, runtime.config.aws.queueName),
          MessageBody: JSON.stringify(message),
        }),
      );
      await expect.poll(() => givenUp, { timeout: 15_000 }).toEqual([INTERRUPTED_TOO_OFTEN]);
      expect(askedToGiveUp).toBe(2);
      expect(runs).toEqual([]);
      await expect
        .poll(() => messagesIn(runtime.config.aws.deadLetterQueueName), { timeout: 10_000 })
        .toBe(1);
      // Sent to the dead-letter queue first, then deleted here.
      await expect.poll(() => messagesIn(runtime.config.aws.queueName), { timeout: 10_000 }).toBe(0);
    } finally {
      await consumer.stop();
    }
  }, 60_000);

  it("keeps taking jobs when the queue fails it, and waits for a queue that does not exist yet", async () => {
    // A queue created only after the worker starts, and a dead-letter queue that is missing, so
    // moving an unreadable message there fails.
    const lateQueueName = `truss-consumer-late-${process.pid}`;
    const lateRuntime = testRuntime({
      TRUSS_QUEUE_NAME: lateQueueName,
      TRUSS_DLQ_NAME: `truss-consumer-missing-dlq-${process.pid}`,
    });
    const runs: string[] = [];
    const logs: string[] = [];
    const consumer = startConsumer({
      runtime: lateRuntime,
      concurrency: 1,
      waitTimeSeconds: 1,
      log: (text) => logs.push(text),
      handlers: registry(async ({ videoId }) => {
        runs.push(videoId);
      }),
    });
    try {
      await expect
        .poll(() => logs.filter((text) => text.includes("queue not reachable")).length)
        .toBeGreaterThan(0);
      const { QueueUrl } = await lateRuntime.clients.sqs.send(
        new CreateQueueCommand({ QueueName: lateQueueName }),
      );
      await lateRuntime.clients.sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: "not a job" }));
      await expect
        .poll(() => logs.filter((text) => text.includes("could not take a job message")).length, {
          timeout: 15_000,
        })
        .toBeGreaterThan(0);
      await enqueueJob(lateRuntime, "ingest-video", { creatorId: "cr_test", videoId: "vid_after_failure" });
      await expect.poll(() => runs, { timeout: 15_000 }).toEqual(["vid_after_failure"]);
    } finally {
      await consumer.stop();
      lateRuntime.clients.sqs.destroy();
    }
  }, 60_000);

  it("never runs the same job twice at once, though its kind has free slots", async () => {
    let runningNow = 0;
    let mostAtOnce = 0;
    let runs = 0;
    const consumer = startConsumer({
      runtime,
      concurrency: 2,
      waitTimeSeconds: 1,
      deferSeconds: 1,
      log: () => undefined,
      handlers: registry(async () => {
        runs++;
        runningNow++;
        mostAtOnce = Math.max(mostAtOnce, runningNow);
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        runningNow--;
      }),
    });
    try {
      // ingest-video has no limit of its own: only its sameness keeps the copies apart.
      const payload = { creatorId: "cr_test", videoId: "vid_twice" };
      await enqueueJob(runtime, "ingest-video", payload);
      await enqueueJob(runtime, "ingest-video", payload);
      await expect.poll(() => runs, { timeout: 20_000 }).toBe(2);
      await expect.poll(() => messagesIn(runtime.config.aws.queueName), { timeout: 10_000 }).toBe(0);
      expect(mostAtOnce).toBe(1);
    } finally {
      await consumer.stop();
    }
  }, 60_000);
});
