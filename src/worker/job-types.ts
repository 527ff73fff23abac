import type { Runtime } from "@/server/runtime";
import type { JobName, JobPayload } from "./catalog";

export type JobLog = (message: string, details?: Record<string, unknown>) => void;

export type JobContext = {
  runtime: Runtime;
  /** Aborted on timeout or worker shutdown; pass it to every long call (ffmpeg, fetch, S3). */
  signal: AbortSignal;
  /** 1 on the first attempt: SQS ApproximateReceiveCount, plus attempts made before a deferral. */
  attempt: number;
  /** True when a failure now will not be retried. */
  isFinalAttempt: boolean;
  /**
   * How long a hold the job takes on shared work (a video's pipeline) lasts unless renewed: the
   * queue's visibility timeout, renewed as often as the message's. A worker that dies stops
   * renewing both, so its hold has lapsed by the time its message is handed out again.
   */
  holdMs: number;
  log: JobLog;
};

export type JobHandler<Name extends JobName> = {
  run: (payload: JobPayload<Name>, context: JobContext) => Promise<void>;
  /**
   * Called once when the job will not be retried (attempts used up, or a PermanentJobError),
   * before the message goes to the dead-letter queue: e.g. mark the video FAILED with a reason.
   */
  onGiveUp?: (payload: JobPayload<Name>, context: JobContext, reason: string) => Promise<void>;
};

/**
 * A failure that retrying cannot fix (the file is not a video, the item is gone). The
 * message is the reason a person reads.
 */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PermanentJobError";
  }
}

/**
 * The job cannot run yet: another worker is on the same work. The consumer sends it back to
 * the queue to be tried after `retryAfterSeconds`, without counting this as an attempt.
 */
export class JobDeferredError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "JobDeferredError";
  }
}
