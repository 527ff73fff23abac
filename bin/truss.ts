import { stderrOutput } from "@/cli/cli-output";
import { CLIP_USAGE, parseClipArgs, runClipCommand, UsageError } from "@/cli/clip-command";
import { formatTimestamp } from "@/engine/format-timestamp";

/**
 * `truss` command line: `truss clip <file-or-url> --out <dir> …` runs the clip engine without
 * the web app or AWS. Progress goes to stderr; the exit code is 0 on success, 1 when the video
 * could not be processed, 2 for a usage mistake; a cancelled run (Ctrl+C, SIGTERM) ends by that
 * signal once its temporary files are gone (a shell shows 130 for Ctrl+C).
 */
const USAGE = `Usage: npx truss <command> [options]

Commands:
  clip <file-or-url> --out <dir>   find, score and render the best moments of a video

Run "npx truss clip --help" for the clip options.`;

const CANCEL_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** The exit code, or the signal that cancelled the run (to end by once cleanup is done). */
async function main(argv: string[]): Promise<number | NodeJS.Signals> {
  const [command, ...rest] = argv;
  if (!command) {
    // Not asked for: a mistake, so the usage goes where errors go.
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (command === "-h" || command === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command !== "clip") {
    process.stderr.write(`Unknown command "${command}".\n\n${USAGE}\n`);
    return 2;
  }
  if (rest.includes("-h") || rest.includes("--help")) {
    process.stdout.write(`${CLIP_USAGE}\n`);
    return 0;
  }
  let options: ReturnType<typeof parseClipArgs>;
  try {
    options = parseClipArgs(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n\n${CLIP_USAGE}\n`);
      return 2;
    }
    throw error;
  }
  // Ctrl-C cancels ffmpeg and cleans up instead of leaving half-written files and temp copies.
  // The listener stays for the whole run: a signal that finds none ends Node at once, and
  // repeats are usual (the terminal signals this process and the launcher passes it on too;
  // people press Ctrl+C twice).
  const controller = new AbortController();
  // One writer for the run's progress and these messages, so none lands on a progress line.
  const output = stderrOutput();
  let cancelledBy: NodeJS.Signals | null = null;
  const cancel = (signal: NodeJS.Signals) => {
    if (cancelledBy) return;
    cancelledBy = signal;
    // On its own line: the terminal has echoed "^C" where the cursor was.
    output.line("\nCancelling: stopping ffmpeg and removing temporary files…");
    controller.abort();
  };
  for (const signal of CANCEL_SIGNALS) process.on(signal, cancel);
  try {
    const report = await runClipCommand(options, { signal: controller.signal, output });
    const lines = report.clips.map(
      (clip) =>
        `#${clip.rank}  ${clip.score.toString().padStart(3)}  ${formatTimestamp(clip.startSeconds)}–${formatTimestamp(clip.endSeconds)} (${Math.round(clip.endSeconds - clip.startSeconds)} s)  ${clip.title}${clip.file ? `  → ${clip.file}` : ""}`,
    );
    process.stdout.write(`${lines.join("\n")}\n`);
    return report.clips.some((clip) => clip.renderError) ? 1 : 0;
  } catch (error) {
    if (cancelledBy) {
      output.line("Cancelled.");
      return cancelledBy;
    }
    output.line(`Failed: ${(error as Error).message}`);
    return 1;
  }
}

const outcome = await main(process.argv.slice(2));
if (typeof outcome === "number") process.exitCode = outcome;
else {
  // Cleanup is done: end by the signal itself, as an uncaught one would have.
  for (const signal of CANCEL_SIGNALS) process.removeAllListeners(signal);
  process.kill(process.pid, outcome);
}
