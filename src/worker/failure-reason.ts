import { ZodError } from "zod";
import { hideMediaInputNames } from "@/media/probe-args";
import { MediaCommandError } from "@/media/run-ffmpeg";

/** Long enough for a sentence and a detail; a failure reason is shown on the video's card. */
const MAX_REASON_LENGTH = 240;

/**
 * The reason a creator reads when a job gives up: one line, without the worker's internals.
 * Messages of our own errors are written for people and pass through. ffmpeg's failures are
 * named as such with its last line of output (not the binary's path on the worker, the
 * presigned URL it read, nor the decoder's memory addresses); a schema failure is our bug, its
 * details go to the log only.
 */
export function failureReasonOf(error: unknown): string {
  if (error instanceof ZodError) return "Something went wrong on our side.";
  if (error instanceof MediaCommandError) {
    if (error.interrupted)
      return "ffmpeg was stopped before it finished (on our side: the worker may have run out of memory).";
    const lastLine = error.details.stderrTail
      .trim()
      .split("\n")
      .at(-1)
      ?.replace(/ @ 0x[0-9a-f]+/g, "");
    const said = lastLine && hideMediaInputNames(lastLine, "the video");
    const what = error.details.timedOut
      ? "ffmpeg did not finish in time"
      : "ffmpeg could not process the video";
    return oneLine(said ? `${what}: ${said}` : `${what}.`);
  }
  return oneLine(error instanceof Error ? error.message : String(error));
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim() || "Something went wrong on our side.";
  return line.length <= MAX_REASON_LENGTH ? line : `${line.slice(0, MAX_REASON_LENGTH - 1)}…`;
}
