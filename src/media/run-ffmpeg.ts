import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";

/**
 * The only place that spawns ffmpeg or ffprobe. Every run has a timeout and can be cancelled
 * with an AbortSignal; stderr is read line by line (progress, filter metadata) and only its
 * tail is kept for error messages; stdout is handed over as a stream, never buffered whole
 * (readMediaStdout, below, holds a small output up to a bound).
 */
export type RunMediaOptions = {
  binaryPath: string;
  args: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called for every stderr line (ffmpeg writes progress and filter output there). */
  onStderrLine?: (line: string) => void;
  /** Consumes stdout as it arrives; when absent, stdout is discarded. */
  consumeStdout?: (stdout: Readable) => Promise<void>;
};

export class MediaCommandError extends Error {
  constructor(
    message: string,
    readonly details: {
      binaryPath: string;
      args: string[];
      exitCode: number | null;
      stderrTail: string;
      timedOut: boolean;
      /** Stopped by the caller's abort signal. */
      cancelled?: boolean;
    },
  ) {
    super(message);
    this.name = "MediaCommandError";
  }

  /**
   * Ended by a signal nobody here sent (the kernel's OOM killer, an operator) or never started
   * (out of memory or processes at spawn): it says nothing about the input, and another try
   * may well succeed.
   */
  get interrupted(): boolean {
    return this.details.exitCode === null && !this.details.timedOut && !this.details.cancelled;
  }
}

const STDERR_TAIL_LINES = 30;

export async function runMedia(options: RunMediaOptions): Promise<{ stderrTail: string }> {
  const { binaryPath, args, timeoutMs, signal, onStderrLine, consumeStdout } = options;
  if (signal?.aborted)
    throw new MediaCommandError("Cancelled before start", details(null, "", { cancelled: true }));

  // Its own process group: a terminal's Ctrl+C signals the whole foreground group, and the
  // caller (a worker finishing its jobs, the CLI cancelling) decides ffmpeg's end itself.
  const child = spawn(binaryPath, args, { stdio: ["ignore", "pipe", "pipe"], detached: true });
  killOnExit(child);
  const tail: string[] = [];
  let timedOut = false;

  const lines = createInterface({ input: child.stderr });
  lines.on("line", (line) => {
    tail.push(line);
    if (tail.length > STDERR_TAIL_LINES) tail.shift();
    onStderrLine?.(line);
  });

  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, timeoutMs);
  signal?.addEventListener("abort", kill, { once: true });

  if (!consumeStdout) child.stdout.resume();
  const stdoutDone = consumeStdout ? consumeStdout(child.stdout) : Promise.resolve();

  const exit = new Promise<{ code: number | null; killedBy?: NodeJS.Signals | null; spawnError?: Error }>(
    (resolve) => {
      child.once("error", (spawnError) => resolve({ code: null, spawnError }));
      child.once("close", (code, killedBy) => resolve({ code, killedBy }));
    },
  );

  try {
    const [{ code, killedBy, spawnError }] = await Promise.all([
      exit,
      stdoutDone.catch((error: unknown) => {
        // A consumer that gives up must not leave ffmpeg running.
        kill();
        throw error;
      }),
    ]);
    const stderrTail = tail.join("\n");
    if (spawnError) {
      throw new MediaCommandError(
        `Could not run ${binaryPath}: ${spawnError.message}`,
        details(null, stderrTail),
      );
    }
    if (timedOut) {
      throw new MediaCommandError(
        `${binaryPath} timed out after ${timeoutMs} ms`,
        details(code, stderrTail, { timedOut: true }),
      );
    }
    if (signal?.aborted)
      throw new MediaCommandError(
        `${binaryPath} was cancelled`,
        details(code, stderrTail, { cancelled: true }),
      );
    if (code === null) {
      throw new MediaCommandError(
        `${binaryPath} was stopped by ${killedBy ?? "a signal"} from outside`,
        details(code, stderrTail),
      );
    }
    if (code !== 0) {
      const lastLine = tail.at(-1) ?? "no output";
      throw new MediaCommandError(
        `${binaryPath} exited with code ${code}: ${lastLine}`,
        details(code, stderrTail),
      );
    }
    return { stderrTail };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", kill);
    lines.close();
  }

  function details(
    exitCode: number | null,
    stderrTail: string,
    how: { timedOut?: boolean; cancelled?: boolean } = {},
  ) {
    return {
      binaryPath,
      args,
      exitCode,
      stderrTail,
      timedOut: how.timedOut ?? false,
      cancelled: how.cancelled,
    };
  }
}

/** Detached ffmpeg processes must not outlive this process, however it ends (short of SIGKILL). */
const running = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

function killOnExit(child: ChildProcess): void {
  running.add(child);
  child.once("exit", () => running.delete(child));
  child.once("error", () => running.delete(child));
}

/**
 * Runs ffmpeg or ffprobe and returns all it wrote to stdout, for outputs small enough to hold
 * (one frame as JPEG, a JSON report, a few test frames). Past `maxBytes` (default 64 MB) the
 * run is stopped with an error rather than buffering whatever ffmpeg writes instead.
 */
export async function readMediaStdout(
  options: Omit<RunMediaOptions, "consumeStdout"> & { maxBytes?: number },
): Promise<Buffer> {
  const { maxBytes = 64 * 1024 * 1024, ...run } = options;
  const chunks: Buffer[] = [];
  let sizeBytes = 0;
  await runMedia({
    ...run,
    consumeStdout: async (stdout) => {
      for await (const chunk of stdout as AsyncIterable<Buffer>) {
        sizeBytes += chunk.length;
        if (sizeBytes > maxBytes) throw new Error(`${run.binaryPath} wrote over ${maxBytes} bytes to stdout`);
        chunks.push(chunk);
      }
    },
  });
  return Buffer.concat(chunks);
}
