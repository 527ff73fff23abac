import { z } from "zod";
import { MAX_PAGE_SIZE } from "@/db/table";
import { withCreator } from "@/server/auth/with-creator";
import { DEFAULT_CLIPS_PAGE_SIZE, listClips } from "@/server/clips/list-clips";
import { MinScoreParam, wholeNumberParam } from "@/server/http/query-params";
import { jsonResponse } from "@/server/http/respond";

export const dynamic = "force-dynamic";

const ListClipsQuery = z.object({
  cursor: z.string().max(2048).optional(),
  sort: z.enum(["newest", "score"]).optional(),
  minScore: MinScoreParam.optional(),
  limit: wholeNumberParam(1, MAX_PAGE_SIZE).default(DEFAULT_CLIPS_PAGE_SIZE),
});

// GET /api/clips?cursor=&sort=newest|score&minScore=&limit= – the caller's clips, one page
export const GET = withCreator(async (request, { creatorId, runtime }) => {
  const search = new URL(request.url).searchParams;
  const query = ListClipsQuery.parse(
    Object.fromEntries([...search.entries()].filter(([, value]) => value !== "")),
  );
  // "Score ≥ N" only makes sense ranked by score; asking for it alone implies that order.
  const sort = query.sort ?? (query.minScore !== undefined ? "score" : "newest");
  const page = await listClips({
    runtime,
    creatorId,
    sort,
    minScore: query.minScore,
    cursor: query.cursor,
    limit: query.limit,
  });
  return jsonResponse(page);
});
