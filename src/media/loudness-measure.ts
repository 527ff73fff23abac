import { buildLoudnessMeasureArgs, type LoudnessMeasurement, parseLoudnessSummary } from "./loudness-args";
import { runMedia } from "./run-ffmpeg";

/** The summary is the last ~15 lines; older ffmpeg builds also log every 100 ms frame first. */
const SUMMARY_LINES = 20;

/**
 * Measures a segment's EBU R128 loudness and true peak. Returns null when ffmpeg printed no
 * summary (the caller then normalises in a single pass).
 */
export async function measureLoudness({
  ffmpegPath,
  input,
  startSeconds,
  durationSeconds,
  timeoutMs,
  signal,
}: {
  ffmpegPath: string;
  input: string;
  startSeconds: number;
  durationSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<LoudnessMeasurement | null> {
  const summary: string[] = [];
  await runMedia({
    binaryPath: ffmpegPath,
    args: buildLoudnessMeasureArgs({ input, startSeconds, durationSeconds }),
    timeoutMs,
    signal,
    onStderrLine: (line) => {
      if (line.includes("Summary:")) summary.length = 0;
      if ((line.includes("Summary:") || summary.length > 0) && summary.length < SUMMARY_LINES)
        summary.push(line);
    },
  });
  return parseLoudnessSummary(summary.join("\n"));
}
