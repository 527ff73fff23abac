import "server-only";
import { listClipsByScore, listClipsNewestFirst } from "@/db/repos/clip-repo";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { groupClipsByVideo } from "./group-clips-by-video";
import { type ClipView, toClipView } from "./to-clip-view";

export type ClipSort = "newest" | "score";

export const DEFAULT_CLIPS_PAGE_SIZE = 24;

/**
 * A page of the creator's clips: newest video first (each video's clips best first), or by score (highest first, optionally only
 * score ≥ minScore). Each page is one Query; `nextCursor` continues the same listing.
 */
export async function listClips(options: {
  runtime: Runtime;
  creatorId: string;
  sort: ClipSort;
  minScore?: number;
  cursor?: string | null;
  limit?: number;
}): Promise<{ clips: ClipView[]; nextCursor: string | null }> {
  const { runtime, creatorId, cursor } = options;
  if (options.sort === "newest" && options.minScore !== undefined) {
    // "Score ≥ N" is a key range of the by-score listing; newest-first has no such range.
    throw new AppError("validation_failed", "minScore works with sort=score only.");
  }
  const table = tableOf(runtime);
  const limit = options.limit ?? DEFAULT_CLIPS_PAGE_SIZE;
  const page =
    options.sort === "score"
      ? await listClipsByScore({ table, creatorId, minScore: options.minScore, cursor, limit })
      : await listClipsNewestFirst({ table, creatorId, cursor, limit });
  const clips = await Promise.all(page.items.map((clip) => toClipView({ runtime, clip })));
  return { clips: options.sort === "newest" ? groupClipsByVideo(clips) : clips, nextCursor: page.nextCursor };
}
