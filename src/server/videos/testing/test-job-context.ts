import type { Runtime } from "@/server/runtime";
import type { JobContext } from "@/worker/job-types";

/** A JobContext as the consumer builds it, for running a handler's `run` directly. */
export function testJobContext(runtime: Runtime, options: { attempt?: number; signal?: AbortSignal } = {}) {
  const lines: string[] = [];
  const context: JobContext = {
    runtime,
    signal: options.signal ?? new AbortController().signal,
    attempt: options.attempt ?? 1,
    isFinalAttempt: false,
    holdMs: 120_000,
    log: (message, details) => lines.push(`${message}${details ? ` ${JSON.stringify(details)}` : ""}`),
  };
  return { context, lines };
}
