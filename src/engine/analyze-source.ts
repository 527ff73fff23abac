import type { MediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { createLocalAnalyzer } from "./analyzers/local-analyzer";
import { DEFAULT_MOMENT_OPTIONS, DEFAULT_SIGNAL_MODE } from "./defaults";
import { extractSignals } from "./signals/extract-signals";
import type {
  AnalysisResult,
  Analyzer,
  ChatActivity,
  MediaProbe,
  MomentOptions,
  SignalCurve,
  SignalMode,
  TranscriptSegment,
} from "./types";

export type SourceAnalysis = {
  probe: MediaProbe;
  signals: SignalCurve;
  analysis: AnalysisResult;
  timings: { probeSeconds: number; signalsSeconds: number; analysisSeconds: number };
};

/**
 * probe → signals → analysis for one local file or URL, without storage or queues: what the
 * CLI, the end-to-end tests and the benchmark run. Failures are the stages' own errors
 * (`MediaProbeError`, `SignalExtractionError`), each with a message a person can read.
 */
export async function analyzeSource({
  binaries,
  input,
  mode = DEFAULT_SIGNAL_MODE,
  options = DEFAULT_MOMENT_OPTIONS,
  analyzer = createLocalAnalyzer(),
  transcript,
  chat,
  signal,
  onStage,
  probe: knownProbe,
}: {
  binaries: MediaBinaries;
  input: string;
  /** A probe of `input` the caller already made: not made again (the probe stage then takes ~0 s). */
  probe?: MediaProbe;
  mode?: SignalMode;
  options?: MomentOptions;
  analyzer?: Analyzer;
  transcript?: TranscriptSegment[];
  chat?: ChatActivity;
  signal?: AbortSignal;
  /** Progress: the stage and, for the signal pass, how far it is (0..1). */
  onStage?: (stage: "probe" | "signals" | "analysis", fraction: number) => void;
}): Promise<SourceAnalysis> {
  const clock = () => performance.now() / 1000;
  let started = clock();
  onStage?.("probe", 0);
  const probe = knownProbe ?? (await probeMedia({ binaries, input, signal }));
  const probeSeconds = clock() - started;

  started = clock();
  onStage?.("signals", 0);
  const signals = await extractSignals({
    binaries,
    input,
    probe,
    mode,
    signal,
    onProgress: (fraction) => onStage?.("signals", fraction),
  });
  const signalsSeconds = clock() - started;

  started = clock();
  onStage?.("analysis", 0);
  const analysis = await analyzer.analyze({
    sourceFile: async () => input,
    probe,
    signals,
    options,
    transcript,
    chat,
    signal,
  });
  onStage?.("analysis", 1);
  const analysisSeconds = clock() - started;
  return { probe, signals, analysis, timings: { probeSeconds, signalsSeconds, analysisSeconds } };
}
