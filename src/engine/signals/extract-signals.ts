import { createInterface } from "node:readline";
import type { MediaProbe, SignalCurve, SignalMode } from "@/engine/types";
import type { MediaBinaries } from "@/media/ffmpeg-binaries";
import { MediaCommandError, runMedia } from "@/media/run-ffmpeg";
import { buildSignalArgs } from "@/media/signal-args";
import { createSignalAccumulator } from "./signal-accumulator";

export class SignalExtractionError extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = "SignalExtractionError";
  }
}

export type ExtractSignalsOptions = {
  binaries: MediaBinaries;
  /** A local path or an http(s) URL. */
  input: string;
  probe: MediaProbe;
  mode: SignalMode;
  /** Default: scaled with the duration and the mode (defaultSignalTimeoutMs). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** 0..1 as the pass moves through the video. */
  onProgress?: (fraction: number) => void;
};

/**
 * One ffmpeg pass over the source → per-second loudness, peaks, momentary loudness, scene
 * scores, motion, silences and scene cuts. ffmpeg's stderr is consumed line by line.
 */
export async function extractSignals({
  binaries,
  input,
  probe,
  mode,
  timeoutMs,
  signal,
  onProgress,
}: ExtractSignalsOptions): Promise<SignalCurve> {
  const accumulator = createSignalAccumulator({
    mode,
    durationSeconds: probe.durationSeconds,
    hasAudio: probe.hasAudio,
    sceneScoreScale: binaries.majorVersion >= 5 ? 100 : 1,
  });
  let lastReportedPercent = -1;
  const effectiveTimeoutMs = timeoutMs ?? defaultSignalTimeoutMs(probe, mode);
  try {
    await runMedia({
      binaryPath: binaries.ffmpegPath,
      args: buildSignalArgs({
        input,
        mode,
        hasAudio: probe.hasAudio,
        hasVideo: probe.hasVideo,
        ffmpegMajorVersion: binaries.majorVersion,
      }),
      timeoutMs: effectiveTimeoutMs,
      signal,
      consumeStdout: async (stdout) => {
        const lines = createInterface({ input: stdout, crlfDelay: Number.POSITIVE_INFINITY });
        for await (const line of lines) accumulator.pushPacketLine(line);
      },
      onStderrLine: (line) => {
        accumulator.pushLine(line);
        if (!onProgress) return;
        const percent = Math.floor((100 * accumulator.latestSeconds) / probe.durationSeconds);
        if (percent > lastReportedPercent) {
          lastReportedPercent = percent;
          onProgress(Math.min(1, percent / 100));
        }
      },
    });
  } catch (error) {
    if (error instanceof MediaCommandError) {
      if (error.details.timedOut) {
        throw new SignalExtractionError(
          `Analysing the video took longer than ${Math.round(effectiveTimeoutMs / 1000)} s and was stopped.`,
          { cause: error },
        );
      }
      if (signal?.aborted) throw new SignalExtractionError("Analysis was cancelled.", { cause: error });
      // Killed from outside (out of memory) or not started: not the video's fault, so not a
      // SignalExtractionError, which fails the video for good.
      if (error.interrupted) throw error;
      throw new SignalExtractionError(
        `The video could not be decoded: ${describeDecodeFailure(error.details.stderrTail)}`,
        { cause: error },
      );
    }
    throw error;
  }
  const curve = accumulator.finish();
  if (!accumulator.hasMeasurements) {
    throw new SignalExtractionError("The video could not be decoded: no audio or picture came out of it.");
  }
  onProgress?.(1);
  return curve;
}

/**
 * Generous on purpose: a timeout is for a stuck ffmpeg, not a slow one. Full decodes of 1080p
 * run at 11–25× real time on two cores, with how busy the host is (the bench's 10 minutes took
 * 24–55 s), keyframes-only near 100×; the budget allows two minutes plus 1× real time in
 * `full` mode, ½× in `fast` (so a 2-hour source gets 2 h 2 min, or 1 h 2 min in the default
 * fast mode).
 */
export function defaultSignalTimeoutMs(probe: MediaProbe, mode: SignalMode): number {
  const realTimeFactor = mode === "full" ? 1 : 0.5;
  return Math.round(120_000 + probe.durationSeconds * 1000 * realTimeFactor);
}

function describeDecodeFailure(stderrTail: string): string {
  const meaningful = stderrTail
    .split("\n")
    .filter((line) => !/@ 0x[0-9a-f]+\] (frame:|lavfi\.)/.test(line))
    .map((line) => line.trim())
    .filter(Boolean);
  const last = meaningful.at(-1) ?? "ffmpeg stopped without saying why";
  return last.replace(/^\[[^\]]+\]\s*/, "").slice(0, 200);
}
