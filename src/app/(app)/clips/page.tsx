import type { Metadata } from "next";
import { ClipsBrowser } from "@/components/clips/clips-browser";
import { ScoringExplainer } from "@/components/clips/scoring-explainer";
import { PageHeader } from "@/components/ui/page-header";
import { requireCurrentCreator } from "@/server/auth/get-current-creator";
import { listClips } from "@/server/clips/list-clips";
import { MinScoreParam } from "@/server/http/query-params";
import { getRuntime } from "@/server/runtime";

export const metadata: Metadata = { title: "Clips" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** A hand-edited link with a bad minimum shows every clip rather than an error page. */
function readMinScore(value: string | string[] | undefined): number | undefined {
  const parsed = MinScoreParam.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

export default async function ClipsPage({ searchParams }: { searchParams: SearchParams }) {
  const { creatorId } = await requireCurrentCreator();
  const search = await searchParams;
  const minScore = readMinScore(search.minScore);
  // A minimum score is a range of the by-score listing, so it implies that order.
  const sort = search.sort === "score" || minScore !== undefined ? "score" : "newest";
  const runtime = getRuntime();
  const page = await listClips({ runtime, creatorId, sort, minScore });
  return (
    <>
      <PageHeader
        title="Clips"
        description="Every clip from your videos. Scores run 0–100 and compare across videos, so the best of everything rises to the top."
      />
      <ScoringExplainer weights={runtime.config.analysis.scoringWeights} />
      <ClipsBrowser
        key={`${sort}-${minScore ?? "any"}`}
        sort={sort}
        minScore={minScore}
        initialClips={page.clips}
        initialCursor={page.nextCursor}
      />
    </>
  );
}
