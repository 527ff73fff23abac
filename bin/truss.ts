import { CLIP_USAGE, parseClipArgs, runClipCommand, UsageError } from "@/cli/clip-command";

/**
 * `truss` command line: `truss clip <file-or-url> --out <dir> …` runs the clip engine without
 * the web app or AWS. Progress goes to stderr; the exit code is 0 on success, 1 when the video
 * could not be processed, 2 for a usage mistake.
 */
const USAGE = `Usage: npx truss <command> [options]

Commands:
  clip <file-or-url> --out <dir>   find, score and render the best moments of a video

Run "npx truss clip --help" for the clip options.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "-h" || command === "--help") {
    process.stdout.write(`${USAGE}\n`);
    return command ? 0 : 2;
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
  const controller = new AbortController();
  const cancel = () => {
    process.stderr.write("\nCancelling…\n");
    controller.abort();
  };
  process.once("SIGINT", cancel);
  process.once("SIGTERM", cancel);
  try {
    const report = await runClipCommand(options, { signal: controller.signal });
    const lines = report.clips.map(
      (clip) =>
        `#${clip.rank}  ${clip.score.toString().padStart(3)}  ${clip.startSeconds.toFixed(1)}–${clip.endSeconds.toFixed(1)} s  ${clip.title}${clip.file ? `  → ${clip.file}` : ""}`,
    );
    process.stdout.write(`${lines.join("\n")}\n`);
    return report.clips.some((clip) => clip.renderError) ? 1 : 0;
  } catch (error) {
    process.stderr.write(
      `${controller.signal.aborted ? "Cancelled" : "Failed"}: ${(error as Error).message}\n`,
    );
    return 1;
  } finally {
    process.off("SIGINT", cancel);
    process.off("SIGTERM", cancel);
  }
}

process.exitCode = await main(process.argv.slice(2));
