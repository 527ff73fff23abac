import { buildLoudnessMeasureArgs, collectLoudnessSummary, type LoudnessMeasurement } from "./loudness-args";
import type { HttpHeaders } from "./probe-args";
import { runMedia } from "./run-ffmpeg";

/**
 * Measures a segment's EBU R128 loudness and true peak. Returns null when ffmpeg printed no
 * summary (the caller then normalises in a single pass).
 */
export async function measureLoudness({
  ffmpegPath,
  input,
  startSeconds,
  durationSeconds,
  httpHeaders,
  timeoutMs,
  signal,
}: {
  ffmpegPath: string;
  input: string;
  httpHeaders?: HttpHeaders;
  startSeconds: number;
  durationSeconds: number;
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<LoudnessMeasurement | null> {
  const summary = collectLoudnessSummary();
  await runMedia({
    binaryPath: ffmpegPath,
    args: buildLoudnessMeasureArgs({ input, startSeconds, durationSeconds, httpHeaders }),
    timeoutMs,
    signal,
    onStderrLine: summary.addLine,
  });
  return summary.measurement();
}
