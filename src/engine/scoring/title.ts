import { formatTimestamp } from "@/engine/format-timestamp";
import type { Subscores } from "@/engine/types";
import type { MomentEvidence } from "./evidence";

/** Below this, no channel carries the clip and the title says so plainly. */
const CARRIES_THE_CLIP = 25;

/**
 * A short title from what drives the clip, with its time: "Loud burst at 02:14", "Rapid cuts
 * at 01:02", "Fast action at 01:49", "“So this is the moment…” at 05:10" (with a transcript),
 * "Chat erupts at 01:10", or "Quiet stretch at 07:00".
 */
export function buildTitle({
  subscores,
  evidence,
  hasTranscript,
}: {
  subscores: Subscores;
  evidence: MomentEvidence;
  hasTranscript: boolean;
}): string {
  const at = (seconds: number) => formatTimestamp(seconds);
  const cutsLead = (evidence.cuts?.count ?? 0) >= 3;
  const options: { strength: number; title: () => string }[] = [
    {
      strength: subscores.audioEnergy,
      title: () =>
        evidence.loudest.contrast >= 0.25
          ? `Loud burst at ${at(evidence.loudest.atSeconds)}`
          : `High-energy stretch at ${at(evidence.loudest.atSeconds)}`,
    },
    {
      strength: subscores.visualDynamics,
      title: () =>
        cutsLead && evidence.cuts
          ? `Rapid cuts at ${at(evidence.cuts.fromSeconds)}`
          : `Fast action at ${at(evidence.motion?.peakAtSeconds ?? evidence.peakAtSeconds)}`,
    },
    {
      strength: subscores.speech,
      title: () =>
        hasTranscript && evidence.speech?.firstWords
          ? `“${evidence.speech.firstWords}” at ${at(evidence.speech.firstAtSeconds)}`
          : `Talking point at ${at(evidence.speech?.firstAtSeconds ?? evidence.peakAtSeconds)}`,
    },
    {
      strength: subscores.chat ?? 0,
      title: () => `Chat erupts at ${at(evidence.chat?.atSeconds ?? evidence.peakAtSeconds)}`,
    },
  ];
  const strongest = options.reduce((best, option) => (option.strength > best.strength ? option : best));
  if (strongest.strength < CARRIES_THE_CLIP) return `Quiet stretch at ${at(evidence.peakAtSeconds)}`;
  return strongest.title();
}
