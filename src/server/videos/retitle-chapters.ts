import "server-only";
import { findVideoChapters, retitleVideoChapters } from "@/db/repos/chapters-repo";
import type { Video } from "@/db/repos/video-repo";
import { curveToScore } from "@/engine/analyzers/local-analyzer";
import { titleChapters } from "@/engine/chapters/build-chapters";
import { analyzeCurve } from "@/engine/moments/analyze-curve";
import { loadScoringInputs } from "@/server/clips/rescore-clip";
import { type Runtime, tableOf } from "@/server/runtime";

/**
 * After a video's captions change, titles its chapters again as the local analyzer titles them:
 * a part in which something is said by its first words, others by what their signals show. The
 * parts stay where they are (a creator may have copied them already). Chapters Gemini titled
 * keep its titles, and a video not analysed yet reads the captions in its analysis. Returns
 * whether any title changed.
 */
export async function retitleChapters({
  runtime,
  video,
}: {
  runtime: Runtime;
  video: Video;
}): Promise<boolean> {
  const { creatorId, videoId } = video;
  const table = tableOf(runtime);
  const stored = await findVideoChapters({ table, creatorId, videoId, consistent: true });
  if (!stored || !video.probe) return false;
  const inputs = await loadScoringInputs({
    s3: runtime.clients.s3,
    bucket: runtime.config.aws.bucketName,
    creatorId,
    videoId,
  });
  if (inputs.analysis?.analyzer !== "local" || !inputs.signals) return false;
  const signals = curveToScore(video.probe, inputs.signals);
  const { features, interest } = analyzeCurve({
    signals,
    weights: runtime.config.analysis.scoringWeights,
    transcript: inputs.transcript,
  });
  const titles = titleChapters({
    ranges: stored.chapters,
    signals,
    features,
    interest,
    transcript: inputs.transcript,
  }).map((chapter) => chapter.title);
  if (titles.every((title, index) => title === stored.chapters[index]?.title)) return false;
  return retitleVideoChapters({ table, creatorId, videoId, titles, expectedUpdatedAt: stored.updatedAt });
}
