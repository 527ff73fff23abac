import { randomUUID } from "node:crypto";
import { holdVideoPipeline, releaseVideoPipeline } from "@/db/repos/video-repo";
import type { Table } from "@/db/table";
import { JobDeferredError, type JobLog } from "../../job-types";

/**
 * One run's hold on a video's pipeline (video-repo's `holdVideoPipeline`), kept while the run
 * works: renewed every third of `holdMs`, let go when the run ends however it ends. Two copies
 * of the analysis job on two workers (the sweep queued one more; SQS delivered one twice) would
 * otherwise both run every stage; the copy that finds the video held waits for it instead.
 */
export type PipelineHold = {
  /** Aborted when another run has taken the video over (this one's hold lapsed unrenewed). */
  readonly lost: AbortSignal;
  /** Stops renewing and lets go of the hold; never throws. */
  release(): Promise<void>;
};

export function keepPipelineHeld(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  /** The run, whose hold is already taken (newPipelineRunId). */
  runId: string;
  holdMs: number;
  log: JobLog;
}): PipelineHold {
  const { table, creatorId, videoId, runId, holdMs, log } = options;
  const lost = new AbortController();
  let renewing: Promise<void> = Promise.resolve();
  const renew = async () => {
    try {
      const outcome = await holdVideoPipeline({ table, creatorId, videoId, runId, holdMs });
      if (outcome.kind === "held-elsewhere") lost.abort(new Error("Another run has taken this video over."));
      // Not in progress any more (deleted, failed elsewhere): the run's progress reports see to that.
    } catch (error) {
      // The next renewal may get through; until the hold lapses nobody else takes it.
      log("could not renew the hold on the video", { error: String(error) });
    }
  };
  const timer = setInterval(() => {
    renewing = renewing.then(renew);
  }, holdMs / 3);
  return {
    lost: lost.signal,
    release: async () => {
      clearInterval(timer);
      await renewing;
      await releaseVideoPipeline({ table, creatorId, videoId, runId }).catch((error: unknown) =>
        log("could not let go of the hold on the video; it lapses on its own", { error: String(error) }),
      );
    },
  };
}

export function newPipelineRunId(): string {
  return randomUUID();
}

/** Sends a job that finds the video held by another run back to the queue until the hold lapses. */
export function waitForHold(heldUntil: string): JobDeferredError {
  return new JobDeferredError(
    "another run holds this video",
    (Date.parse(heldUntil) - Date.now()) / 1000 + 1,
  );
}
