import { type Clip, isTrimmed, updateClipScore } from "@/db/repos/clip-repo";
import type { Table } from "@/db/table";
import { curveToScore } from "@/engine/analyzers/local-analyzer";
import { scoreRange } from "@/engine/scoring/score-range";
import type {
  AnalysisResult,
  MediaProbe,
  ScoringWeights,
  SignalCurve,
  TranscriptSegment,
} from "@/engine/types";
import { readAnalysisArtifact, readSignalsArtifact } from "@/storage/analysis-artifacts";
import { captionsTranscript } from "@/storage/creator-transcript";
import type { Bucket } from "@/storage/object-io";

/** What scoring a clip's range needs from the video's stored analysis, and its captions. */
export type ScoringInputs = {
  signals: SignalCurve | undefined;
  analysis: AnalysisResult | undefined;
  /** What the clip's captions show: the creator's subtitle file, else a generated transcript. */
  transcript: TranscriptSegment[] | undefined;
};

export async function loadScoringInputs(
  options: Bucket & {
    creatorId: string;
    videoId: string;
    signal?: AbortSignal;
    log?: (message: string, details?: Record<string, unknown>) => void;
  },
): Promise<ScoringInputs> {
  const [signals, analysis] = await Promise.all([
    readSignalsArtifact(options),
    readAnalysisArtifact(options),
  ]);
  const transcript = await captionsTranscript({ ...options, generated: analysis?.transcript });
  return { signals, analysis, transcript };
}

/**
 * Scores the clip's current range exactly as the local analyzer scores its own clips, so scores
 * stay comparable, and stores the score, sub-scores and reasons (and, for a clip the local
 * analyzer titled, the title). An edited range is scored so whoever scored it first; a clip the
 * local analyzer scored is scored again with the captions it now shows. Anything else, or a
 * video without stored signals, is left as it is. Returns the clip as it now stands, or null
 * when a newer range was saved meanwhile (its own re-score follows).
 */
export async function rescoreClip(options: {
  table: Table;
  creatorId: string;
  clip: Clip;
  probe: MediaProbe;
  inputs: ScoringInputs;
  /** The configured weights, which the analysis used too. */
  weights: ScoringWeights;
}): Promise<Clip | null> {
  const { clip, inputs } = options;
  const scoredLocally = inputs.analysis?.analyzer === "local";
  if (!inputs.signals || (!isTrimmed(clip) && !scoredLocally)) return clip;
  const readout = scoreRange({
    signals: curveToScore(options.probe, inputs.signals),
    range: { startSeconds: clip.startSeconds, endSeconds: clip.endSeconds },
    weights: options.weights,
    transcript: inputs.transcript,
  });
  return updateClipScore({
    table: options.table,
    creatorId: options.creatorId,
    clipId: clip.clipId,
    revision: clip.revision,
    scored: {
      score: readout.score,
      subscores: readout.subscores,
      reasons: readout.reasons,
      // The local analyzer's titles say what drives the clip; another analyzer's are its own.
      ...(scoredLocally && { title: readout.title }),
    },
  });
}
