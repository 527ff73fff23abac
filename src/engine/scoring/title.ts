import { formatTimestamp } from "@/engine/format-timestamp";
import type { TimeRange } from "@/engine/types";
import type { MomentEvidence } from "./evidence";
import type { RankedReason, ReasonKind } from "./reasons";

/**
 * A short title after the clip's strongest reason (by its channel's sub-score), at its time: "Loud burst at 02:14", "Rapid
 * cuts at 01:02", "Fast action at 01:49", "“So this is the moment…” at 05:10" (with a
 * transcript), "Chat erupts at 01:10". The opening is named only when nothing else is. A clip
 * that earns no reason is a "Quiet stretch from" its start. Built from the reasons, so a title
 * never praises what its reasons call unremarkable.
 */
export function buildTitle({
  ranked,
  range,
  evidence,
  hasTranscript,
}: {
  ranked: readonly RankedReason[];
  range: TimeRange;
  evidence: MomentEvidence;
  hasTranscript: boolean;
}): string {
  // The channel that scores highest among those with a reason (its sub-score, not the reasons'
  // display order: talk that covers the whole clip beats a loud moment in it).
  const named = ranked.filter((reason) => reason.kind !== "hook");
  const lead =
    named.reduce<RankedReason | undefined>(
      (best, reason) => (!best || reason.channelScore > best.channelScore ? reason : best),
      undefined,
    ) ?? ranked[0];
  if (!lead) return `Quiet stretch from ${formatTimestamp(range.startSeconds)}`;
  const at = formatTimestamp(lead.atSeconds);
  const titles: Record<ReasonKind, () => string> = {
    "loud-burst": () => `Loud burst at ${at}`,
    "loud-throughout": () => `High-energy stretch at ${at}`,
    cuts: () => `Rapid cuts at ${at}`,
    motion: () => `Fast action at ${at}`,
    speech: () =>
      hasTranscript && evidence.speech?.firstWords
        ? `“${evidence.speech.firstWords}” at ${at}`
        : `Talking point at ${at}`,
    hook: () => `Strong opening at ${at}`,
    chat: () => `Chat erupts at ${at}`,
  };
  return titles[lead.kind]();
}
