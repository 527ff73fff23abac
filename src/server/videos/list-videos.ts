import "server-only";
import { z } from "zod";
import { listVideosByCreator } from "@/db/repos/video-repo";
import { wholeNumberParam } from "@/server/http/query-params";
import { type Runtime, tableOf } from "@/server/runtime";
import { toVideoView, type VideoView } from "./to-video-view";

export const ListVideosQuery = z.object({
  cursor: z.string().max(4096).optional(),
  limit: wholeNumberParam(1, 100).default(24),
});

/** The caller's videos, newest first, one page at a time. */
export async function listVideos(options: {
  runtime: Runtime;
  creatorId: string;
  cursor?: string | null;
  limit?: number;
}): Promise<{ videos: VideoView[]; nextCursor: string | null }> {
  const { runtime } = options;
  const page = await listVideosByCreator({
    table: tableOf(runtime),
    creatorId: options.creatorId,
    limit: options.limit ?? 24,
    cursor: options.cursor,
  });
  return {
    videos: await Promise.all(page.items.map((video) => toVideoView(runtime, video))),
    nextCursor: page.nextCursor,
  };
}
