import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
} from "@aws-sdk/client-sqs";
import { ZodError } from "zod";
import { getQueueUrl } from "@/queue/queue-url";
import type { Runtime } from "@/server/runtime";
import { JOB_CATALOG, JobMessage, type JobName } from "./catalog";
import { failureReasonOf } from "./failure-reason";
import type { JobHandler, JobLog } from "./job-types";
import { JobDeferredError, PermanentJobError } from "./job-types";

/**
 * Long-polls the job queue and runs handlers with bounded concurrency.
 *
 * - A message stays invisible while its job runs: the visibility is extended every
 *   `heartbeatMs`, so a long render is never handed to a second worker.
 * - A failed attempt is retried later with exponential backoff (the message's visibility is
 *   set to the backoff); after `maxAttempts`, or on a PermanentJobError, `onGiveUp` runs and the
 *   message moves to the dead-letter queue. A job whose last attempt ended with its worker
 *   (a crash, the kernel's OOM killer) is given up the same way on its next receive: the
 *   queue's redrive policy allows one receive more than any job's attempts, and stays the
 *   backstop for messages no worker can read.
 * - A job whose kind is at its concurrency limit here (renders take both cores) is deferred:
 *   re-sent with a short delay and the received message deleted. Handing the message back
 *   instead would count every wait as a receive, and the queue's redrive policy would move a
 *   job that only waited its turn a few times to the dead-letter queue, never run.
 * - The same job (kind and payload) never runs twice at once here: a copy received while it
 *   runs (its visibility lapsed, or it was queued again) is deferred the same way. Across
 *   workers a job takes a hold on its work (`JobContext.holdMs`) and defers a copy that finds
 *   the work held by throwing JobDeferredError.
 * - On stop, no new message is taken, even with every slot busy; running jobs get
 *   `shutdownGraceMs` to finish, then are aborted and handed back for another worker without
 *   counting as an attempt (see `handBack`).
 */
export type HandlerRegistry = { [Name in JobName]: () => Promise<JobHandler<Name>> };

export type ConsumerOptions = {
  runtime: Runtime;
  handlers: HandlerRegistry;
  concurrency: number;
  log: JobLog;
  /** Long-poll wait; 20 s (the SQS maximum) in production, shorter in tests. */
  waitTimeSeconds?: number;
  visibilityTimeoutSeconds?: number;
  heartbeatMs?: number;
  shutdownGraceMs?: number;
  /** Backoff before retry n (1-based): base × 3^(n−1), capped at 15 minutes. */
  retryBaseSeconds?: number;
  /** How long a deferred job waits before it is received again. */
  deferSeconds?: number;
};

export type Consumer = { stop: () => Promise<void>; done: Promise<void> };

/** Why a job whose every attempt ended with its worker gone is given up. */
export const INTERRUPTED_TOO_OFTEN =
  "Processing stopped unexpectedly: the worker running its last attempt ended (perhaps out of memory).";

export function startConsumer(options: ConsumerOptions): Consumer {
  const {
    runtime,
    handlers,
    concurrency,
    log,
    waitTimeSeconds = 20,
    visibilityTimeoutSeconds = 120,
    heartbeatMs = 40_000,
    shutdownGraceMs = 25_000,
    retryBaseSeconds = 10,
    deferSeconds = 5,
  } = options;
  const { sqs } = runtime.clients;
  const stopController = new AbortController();
  const running = new Map<
    string,
    { promise: Promise<void>; abort: AbortController; name: JobName; jobKey: string }
  >();
  const stopped = new Promise<void>((resolve) =>
    stopController.signal.addEventListener("abort", () => resolve(), { once: true }),
  );

  const runningOf = (name: JobName) => [...running.values()].filter((job) => job.name === name).length;
  const jobKeyOf = (job: JobMessage) => `${job.name} ${JSON.stringify(job.payload)}`;
  const isRunning = (jobKey: string) => [...running.values()].some((job) => job.jobKey === jobKey);

  /**
   * The queue's URL, asked again every few seconds while the queue cannot be reached (a worker
   * started before its queue exists, or during a network blip); null once stopped.
   */
  async function lookUpQueueUrl(): Promise<string | null> {
    while (!stopController.signal.aborted) {
      try {
        return await getQueueUrl(sqs, runtime.config.aws.queueName);
      } catch (error) {
        log("queue not reachable; retrying", { error: String(error) });
        await sleep(2_000, stopController.signal);
      }
    }
    return null;
  }

  async function receiveLoop(): Promise<void> {
    const queueUrl = await lookUpQueueUrl();
    if (queueUrl === null) return;
    while (!stopController.signal.aborted) {
      const freeSlots = concurrency - running.size;
      if (freeSlots <= 0) {
        // Woken by a finished job or by stop: a full worker must still stop on SIGTERM.
        await Promise.race([stopped, ...[...running.values()].map((job) => job.promise)]);
        continue;
      }
      let messages: Message[] = [];
      try {
        const output = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(10, freeSlots),
            WaitTimeSeconds: waitTimeSeconds,
            VisibilityTimeout: visibilityTimeoutSeconds,
            MessageSystemAttributeNames: ["ApproximateReceiveCount"],
          }),
          { abortSignal: stopController.signal },
        );
        messages = output.Messages ?? [];
      } catch (error) {
        if (stopController.signal.aborted) break;
        log("queue receive failed; retrying", { error: String(error) });
        await sleep(2_000, stopController.signal);
        continue;
      }
      for (const message of messages) {
        try {
          await dispatch(queueUrl, message);
        } catch (error) {
          // The queue failed us mid-way (deferring, dead-lettering): the message reappears after
          // its visibility timeout. The loop must go on, or this worker would take no job again.
          log("could not take a job message; it returns after its visibility timeout", {
            error: String(error),
          });
        }
      }
    }
  }

  /** Starts the message's job here, or defers it, or dead-letters an unreadable one. */
  async function dispatch(queueUrl: string, message: Message): Promise<void> {
    const receiptHandle = message.ReceiptHandle;
    if (!receiptHandle) return;
    const parsed = JobMessage.safeParse(safeJson(message.Body));
    if (!parsed.success) {
      log("unreadable job message moved to the dead-letter queue", { body: message.Body?.slice(0, 200) });
      await moveToDeadLetter(queueUrl, message, "unreadable message");
      return;
    }
    const { name } = parsed.data;
    const jobKey = jobKeyOf(parsed.data);
    const limit = (JOB_CATALOG[name] as { concurrency?: number }).concurrency ?? concurrency;
    if (runningOf(name) >= limit || isRunning(jobKey)) {
      await deferJob(queueUrl, message, parsed.data);
      return;
    }
    const abort = new AbortController();
    const promise = processMessage(queueUrl, message, parsed.data, abort).finally(() =>
      running.delete(receiptHandle),
    );
    running.set(receiptHandle, { promise, abort, name, jobKey });
  }

  async function processMessage(
    queueUrl: string,
    message: Message,
    job: JobMessage,
    abort: AbortController,
  ): Promise<void> {
    const receiptHandle = message.ReceiptHandle!;
    const definition = JOB_CATALOG[job.name];
    const attempt = (job.earlierAttempts ?? 0) + receivesOf(message);
    const jobLog: JobLog = (text, details) => log(`[${job.name}] ${text}`, { attempt, ...details });
    const timeout = AbortSignal.timeout(definition.timeoutMs);
    const signal = AbortSignal.any([abort.signal, timeout]);
    const heartbeat = setInterval(() => {
      changeVisibility(queueUrl, receiptHandle, visibilityTimeoutSeconds).catch((error) =>
        jobLog("could not extend visibility", { error: String(error) }),
      );
    }, heartbeatMs);
    const context = {
      runtime,
      signal,
      attempt,
      isFinalAttempt: attempt >= definition.maxAttempts,
      holdMs: visibilityTimeoutSeconds * 1000,
      log: jobLog,
    };
    let handler: JobHandler<JobName> | undefined;
    const payload = job.payload as never;
    try {
      try {
        handler = (await handlers[job.name]()) as JobHandler<JobName>;
        if (attempt > definition.maxAttempts) {
          // Its last attempt ended with no verdict: the worker died running it (killed for
          // memory, say), so it would die again. Give up here, where onGiveUp can tell the
          // video why; the queue's redrive policy would dead-letter it without a word.
          throw new PermanentJobError(INTERRUPTED_TOO_OFTEN);
        }
        await handler.run(definition.payload.parse(payload) as never, context);
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: receiptHandle }));
        jobLog("done");
      } catch (error) {
        if (abort.signal.aborted && !timeout.aborted) {
          // Shutdown, not failure: the job goes back for the next worker, its attempt uncounted.
          await handBack(queueUrl, message, job);
          jobLog("handed back on shutdown");
          return;
        }
        const putOff = async (deferral: JobDeferredError) => {
          const delaySeconds = Math.min(900, Math.max(deferSeconds, Math.ceil(deferral.retryAfterSeconds)));
          await resendUncounted(queueUrl, message, job, delaySeconds);
          jobLog(`deferred ${delaySeconds} s: ${deferral.message}`);
        };
        if (error instanceof JobDeferredError) return await putOff(error);
        const reason = timeout.aborted
          ? `Timed out after ${Math.round(definition.timeoutMs / 60_000)} minutes.`
          : failureReasonOf(error);
        const permanent = error instanceof PermanentJobError || error instanceof ZodError;
        if (permanent || context.isFinalAttempt) {
          jobLog("giving up", { reason, permanent });
          try {
            await handler?.onGiveUp?.(payload, { ...context, isFinalAttempt: true }, reason);
          } catch (giveUpError) {
            // Not now (another worker's run holds the work): sent back, and taken up again once
            // that run may have ended.
            if (giveUpError instanceof JobDeferredError) return await putOff(giveUpError);
            throw giveUpError;
          }
          await moveToDeadLetter(queueUrl, message, reason);
        } else {
          const backoffSeconds = Math.min(900, retryBaseSeconds * 3 ** (attempt - 1));
          jobLog("failed; will retry", {
            reason,
            backoffSeconds,
            error: error instanceof Error ? error.stack : error,
          });
          await changeVisibility(queueUrl, receiptHandle, backoffSeconds);
        }
      }
    } catch (error) {
      // Bookkeeping failed (queue unreachable); the message reappears after its visibility.
      jobLog("job bookkeeping failed", { error: String(error) });
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function changeVisibility(queueUrl: string, receiptHandle: string, seconds: number) {
    await sqs.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: queueUrl,
        ReceiptHandle: receiptHandle,
        VisibilityTimeout: seconds,
      }),
    );
  }

  /**
   * Another job of this kind, or this very job, runs here: the job goes back on the queue as a
   * new message, for this worker a little later or another worker sooner.
   */
  async function deferJob(queueUrl: string, message: Message, job: JobMessage) {
    const earlierAttempts = await resendUncounted(queueUrl, message, job, deferSeconds);
    log(`[${job.name}] deferred ${deferSeconds} s: another of its kind, or the same job, runs here`, {
      earlierAttempts,
    });
  }

  /**
   * A job stopped by shutdown goes back on the queue as a new message, as a deferred one does.
   * Making the message visible again instead counted the stop as an attempt, and the long poll
   * this worker had just abandoned could take it: the queue server still holds that request
   * and hands it the message, which then stayed hidden for the whole visibility timeout and
   * counted a second receive. Three restarts moved a job to the dead-letter queue unrun. So
   * the new message waits out the longest such poll.
   */
  async function handBack(queueUrl: string, message: Message, job: JobMessage) {
    await resendUncounted(queueUrl, message, job, Math.min(900, waitTimeSeconds + 1)).catch(
      () =>
        // The queue is unreachable: the original reappears after its visibility timeout.
        undefined,
    );
  }

  /**
   * Re-sends the job as a new message after `delaySeconds`, with this receive not counted as an
   * attempt (the ones before it, failures or a worker that died, stay counted), and deletes the
   * received one. Returns the attempts carried over.
   */
  async function resendUncounted(queueUrl: string, message: Message, job: JobMessage, delaySeconds: number) {
    const resent: JobMessage = {
      ...job,
      earlierAttempts: (job.earlierAttempts ?? 0) + receivesOf(message) - 1,
    };
    // Sent before the original is deleted: a crash in between leaves a duplicate (jobs are
    // idempotent), never a lost job.
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queueUrl,
        MessageBody: JSON.stringify(resent),
        DelaySeconds: delaySeconds,
      }),
    );
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
    return resent.earlierAttempts;
  }

  async function moveToDeadLetter(queueUrl: string, message: Message, reason: string) {
    const deadLetterUrl = await getQueueUrl(sqs, runtime.config.aws.deadLetterQueueName);
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: deadLetterUrl,
        MessageBody: message.Body ?? "",
        MessageAttributes: { failureReason: { DataType: "String", StringValue: reason.slice(0, 1000) } },
      }),
    );
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
  }

  const done = receiveLoop().catch((error) => log("worker loop crashed", { error: String(error) }));

  return {
    done,
    stop: async () => {
      stopController.abort();
      await done;
      const jobs = [...running.values()];
      const finished = Promise.allSettled(jobs.map((job) => job.promise));
      const graceOver = await Promise.race([
        finished.then(() => false),
        sleep(shutdownGraceMs).then(() => true),
      ]);
      if (graceOver) {
        for (const job of running.values()) job.abort.abort();
        await Promise.allSettled([...running.values()].map((job) => job.promise));
      }
    },
  };
}

/** How many times the queue has handed this message out, this time included. */
function receivesOf(message: Message): number {
  return Number(message.Attributes?.ApproximateReceiveCount ?? "1");
}

function safeJson(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? "");
  } catch {
    return undefined;
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
