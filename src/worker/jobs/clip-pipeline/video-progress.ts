import { updateVideoProgress, type VideoStatus } from "@/db/repos/video-repo";
import type { Table } from "@/db/table";
import { isGoneOrChanged } from "@/server/errors";

/**
 * Reports a video's stage and progress while the pipeline works, so its page can show where
 * it is (and the sweep sees it is alive). Stage changes are awaited; progress within a stage
 * is sent at most every `minIntervalMs`, without holding up the work. When the video is gone
 * or no longer in the expected status (deleted, or failed elsewhere), `gone` aborts so the
 * job stops spending effort on it.
 */
export type VideoProgress = {
  readonly gone: AbortSignal;
  /** The last percentage reported (−1 before the first). */
  readonly percent: number;
  /** The status progress is reported under (ANALYZING, then RENDERING). */
  setStatus(status: VideoStatus): void;
  stage(stage: string, percent: number): Promise<void>;
  tick(percent: number): void;
  /**
   * Reports the same stage and progress again every `keepAliveMs` until `work` settles: for a
   * step that reports nothing of its own for minutes (Gemini's analysis), which the sweep
   * would otherwise take for a job lost with its worker and queue again.
   */
  keepAliveWhile<T>(work: Promise<T>): Promise<T>;
  /** Waits for a progress write in flight. */
  settle(): Promise<void>;
};

export function createVideoProgress(options: {
  table: Table;
  creatorId: string;
  videoId: string;
  status: VideoStatus;
  /**
   * The percentage the video already shows in `status`, for a job picking up where a lost one
   * stopped: its stages restart lower (a render is done again from its start), and the bar would
   * go back (76% → 73%). Shown progress stays at least this until the status changes.
   */
  resumedFromPercent?: number;
  minIntervalMs?: number;
  keepAliveMs?: number;
  log?: (message: string, details?: Record<string, unknown>) => void;
}): VideoProgress {
  const { table, creatorId, videoId } = options;
  const minIntervalMs = options.minIntervalMs ?? 1_500;
  // Well inside the sweep's STUCK_AFTER_MS (15 minutes).
  const keepAliveMs = options.keepAliveMs ?? 60_000;
  const goneController = new AbortController();
  let status = options.status;
  let currentStage: string | null = null;
  let lastSentAt = 0;
  let lastPercent = -1;
  let floorPercent = options.resumedFromPercent ?? 0;
  let inFlight: Promise<void> = Promise.resolve();

  const send = (stage: string | null, stagePercent: number) => {
    const percent = Math.max(stagePercent, floorPercent);
    lastSentAt = Date.now();
    lastPercent = percent;
    const write = updateVideoProgress({
      table,
      creatorId,
      videoId,
      status,
      stage: stage ?? undefined,
      progressPercent: percent,
    }).catch((error: unknown) => {
      if (isGoneOrChanged(error)) {
        goneController.abort(new Error(`The video is no longer ${status}: ${error.message}`));
        return;
      }
      // Progress is informative; a failed write must not fail the work.
      options.log?.("could not report progress", { error: String(error) });
    });
    inFlight = inFlight.then(() => write);
    return write;
  };

  return {
    gone: goneController.signal,
    get percent() {
      return lastPercent;
    },
    setStatus(next) {
      if (next !== status) floorPercent = 0;
      status = next;
    },
    async stage(stage, percent) {
      currentStage = stage;
      await send(stage, percent);
      if (goneController.signal.aborted) throw goneController.signal.reason;
    },
    tick(percent) {
      const rounded = Math.round(percent * 10) / 10;
      if (rounded <= lastPercent || Date.now() - lastSentAt < minIntervalMs) return;
      void send(currentStage, rounded);
    },
    async keepAliveWhile(work) {
      const timer = setInterval(() => void send(currentStage, lastPercent), keepAliveMs);
      try {
        return await work;
      } finally {
        clearInterval(timer);
      }
    },
    settle: () => inFlight,
  };
}
