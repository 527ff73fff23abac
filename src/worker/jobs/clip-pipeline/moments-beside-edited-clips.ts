import { MAX_TOP_N } from "@/engine/defaults";
import { rangesOverlap } from "@/engine/time-ranges";
import type { TimeRange } from "@/engine/types";

type EditedClip = TimeRange & { ordinal: number };

/**
 * The moments an analysis found, made to sit beside the clips a creator edited (trimmed, moved
 * or given a layout: isEditedByCreator), which a new analysis of the video (other clips asked
 * for) must not take away:
 * - a moment overlapping an edited clip is left out: the creator already has it, as they cut it,
 *   and clips do not overlap; so is one overlapping a clip the creator deleted (`deletedRanges`):
 *   what they discarded is not offered again;
 * - of the rest, the best `count` keep their rank order and take the ordinals (hence clip ids)
 *   the edited clips do not hold, from 0 up.
 * The analysis is asked for one more moment per edited or deleted clip (momentsToFindBeside), so
 * the next best stands in for a moment one of them covers.
 * Pure and deterministic, so a redelivered job places the same moments under the same ids.
 */
export function momentsBesideEditedClips<Moment extends TimeRange & { ordinal: number }>(
  moments: readonly Moment[],
  editedClips: readonly EditedClip[],
  count: number,
  deletedRanges: readonly TimeRange[] = [],
): Moment[] {
  const heldOrdinals = new Set(editedClips.map((clip) => clip.ordinal));
  const taken: readonly TimeRange[] = [...editedClips, ...deletedRanges];
  const kept = [...moments]
    .sort((a, b) => a.ordinal - b.ordinal)
    .filter((moment) => !taken.some((range) => rangesOverlap(range, moment)))
    .slice(0, count);
  let ordinal = 0;
  return kept.map((moment) => {
    while (heldOrdinals.has(ordinal)) ordinal += 1;
    const placed = { ...moment, ordinal };
    ordinal += 1;
    return placed;
  });
}

/**
 * How many moments to ask the analysis for, so that `count` can sit beside the edited clips and
 * away from the deleted ones.
 */
export function momentsToFindBeside(
  count: number,
  editedClips: readonly unknown[],
  deletedRanges: readonly unknown[] = [],
): number {
  return Math.min(MAX_TOP_N, count + editedClips.length + deletedRanges.length);
}
