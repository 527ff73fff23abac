/**
 * Where `truss clip` reports what it is doing (stderr: stdout carries the results). Lines stay;
 * progress counts up. On a terminal a task's progress rewrites one line in place and the next
 * line replaces it; in a pipe, a CI log or a test, progress is written as lines of their own,
 * one per 10%, so a log shows how far a run got without a line per percent.
 */
export type CliOutput = {
  line(text: string): void;
  /** `fraction` (0..1) of `task` done, shown as "task: 40%". */
  progress(task: string, fraction: number): void;
};

/** Erases the terminal's current line (carriage return, then ANSI "erase to end of line"). */
const ERASE_LINE = "\r\x1b[K";
/** Steps at which progress becomes a line of its own where it cannot be rewritten. */
const LOGGED_STEP_PERCENT = 10;

const percentOf = (fraction: number) => Math.floor(Math.min(1, Math.max(0, fraction)) * 100);

export function terminalOutput(stream: { write(chunk: string): unknown }): CliOutput {
  let shown: { task: string; percent: number } | null = null;
  return {
    line(text) {
      stream.write(`${shown ? ERASE_LINE : ""}${text}\n`);
      shown = null;
    },
    progress(task, fraction) {
      const percent = percentOf(fraction);
      if (shown?.task === task && shown.percent === percent) return;
      stream.write(`${ERASE_LINE}${task}: ${percent}%`);
      shown = { task, percent };
    },
  };
}

export function lineOutput(writeLine: (text: string) => void): CliOutput {
  // Per task, the percentage last written. A line after a task's 100% starts it afresh (each
  // clip's render); a line in the middle of a task (a note of what it found) does not, so its
  // progress goes on from where it was instead of repeating.
  const logged = new Map<string, number>();
  return {
    line(text) {
      for (const [task, percent] of logged) if (percent >= 100) logged.delete(task);
      writeLine(text);
    },
    progress(task, fraction) {
      const percent = percentOf(fraction);
      const last = logged.get(task);
      if (
        last !== undefined &&
        (percent <= last || (percent < last + LOGGED_STEP_PERCENT && percent < 100))
      ) {
        return;
      }
      logged.set(task, percent);
      writeLine(`${task}: ${percent}%`);
    },
  };
}

/** stderr as this process has it: rewritten in place on a terminal, lines otherwise. */
export function stderrOutput(): CliOutput {
  return process.stderr.isTTY
    ? terminalOutput(process.stderr)
    : lineOutput((text) => process.stderr.write(`${text}\n`));
}
