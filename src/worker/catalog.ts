import { z } from "zod";

/**
 * Every job the worker runs: name → payload schema, time limit, attempts. Handlers
 * (src/worker/handlers.ts) are type-checked against this catalog, and `enqueueJob` only
 * accepts a payload that parses. Jobs are idempotent: a redelivered message must be safe.
 */
export type JobDefinition = {
  payload: z.ZodType;
  /** The handler is aborted after this long; the attempt counts as failed. */
  timeoutMs: number;
  /** After this many failed attempts the message goes to the dead-letter queue. */
  maxAttempts: number;
  /** At most this many jobs of this kind run at once in one worker (renders: 1 on 2 cores). */
  concurrency?: number;
};

const videoRef = z.object({ creatorId: z.string().min(1), videoId: z.string().min(1) });

const MINUTE_MS = 60_000;

export const JOB_CATALOG = {
  /** Verify an uploaded object, probe it, record metadata, then queue analysis. */
  "ingest-video": { payload: videoRef, timeoutMs: 10 * MINUTE_MS, maxAttempts: 5 },
  /** Fetch a media URL into the bucket, then continue as ingest-video. */
  "import-video": { payload: videoRef, timeoutMs: 45 * MINUTE_MS, maxAttempts: 3 },
  /** Signals → analysis → moments → clips (rendering each), stage by stage, resumable. */
  "analyze-video": { payload: videoRef, timeoutMs: 4 * 60 * MINUTE_MS, maxAttempts: 4, concurrency: 1 },
  /** Render one revision of a clip: after an edit, new captions, "Render again" or the sweep. */
  "render-clip": {
    payload: videoRef.extend({ clipId: z.string().min(1), revision: z.number().int().nonnegative() }),
    timeoutMs: 20 * MINUTE_MS,
    maxAttempts: 4,
    concurrency: 1,
  },
  /** Periodic: delete uploads never completed, re-queue videos stuck mid-pipeline and lost clip renders. */
  "sweep-videos": { payload: z.object({}), timeoutMs: 10 * MINUTE_MS, maxAttempts: 1 },
} as const satisfies Record<string, JobDefinition>;

export type JobName = keyof typeof JOB_CATALOG;
export type JobPayload<Name extends JobName> = z.infer<(typeof JOB_CATALOG)[Name]["payload"]>;

/** The message body on the queue. */
export const JobMessage = z.object({
  name: z.enum(Object.keys(JOB_CATALOG) as [JobName, ...JobName[]]),
  payload: z.unknown(),
  enqueuedAt: z.string(),
  /**
   * Attempts made on earlier messages of this job: a worker that cannot run a job yet re-sends
   * it as a new message, whose receive count starts again (see the consumer).
   */
  earlierAttempts: z.number().int().nonnegative().optional(),
});
export type JobMessage = z.infer<typeof JobMessage>;
