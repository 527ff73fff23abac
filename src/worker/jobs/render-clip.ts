import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { clipNeedsRender, findClipById, setClipRenderStatus } from "@/db/repos/clip-repo";
import { findVideoById } from "@/db/repos/video-repo";
import { prepareRenderer } from "@/engine/render/render-clip";
import { isClipId, isId } from "@/lib/ids";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import type { HttpHeaders } from "@/media/probe-args";
import { ensureSeekableSource } from "@/media/seekable-copy";
import { loadScoringInputs, rescoreClip } from "@/server/clips/rescore-clip";
import { AppError } from "@/server/errors";
import { tableOf } from "@/server/runtime";
import { ObjectChangedError } from "@/storage/object-changed";
import { downloadObjectToFile } from "@/storage/object-io";
import type { JobContext, JobHandler } from "../job-types";
import { PermanentJobError } from "../job-types";
import { renderAndStoreClip } from "./clip-pipeline/render-and-store-clip";
import { SOURCE_CHANGED_REASON } from "./pinned-source";
import { renderFromStoredSource, seekableStoredSource } from "./stored-source";

/**
 * Renders one revision of a clip: after the creator edited its range or layout, or asked to
 * render it again (PATCH /api/clips/:id), after captions were uploaded for its video, or for a
 * render the sweep found lost. Only the revision named in the job is rendered, and only while
 * it is still the clip's current one: a newer edit queues its own job, and a redelivered job
 * finds the clip READY and stops. When the range was edited, or the local analyzer scored the
 * clip (its captions may have changed), it is re-scored from the video's stored signals first,
 * so the score, sub-scores and reasons (and the local analyzer's title) describe what the clip
 * now shows.
 */
export const renderClipJob: JobHandler<"render-clip"> = {
  run: (payload, context) => rerenderClip({ ...payload, context }),
  onGiveUp: async ({ creatorId, clipId, revision }, context, reason) => {
    if (!isClipId(clipId)) return;
    try {
      await setClipRenderStatus({
        table: tableOf(context.runtime),
        creatorId,
        clipId,
        revision,
        status: "FAILED",
        failureReason: reason,
      });
    } catch (error) {
      if (!(error instanceof AppError && error.code === "not_found")) throw error;
    }
  },
};

export async function rerenderClip(options: {
  creatorId: string;
  videoId: string;
  clipId: string;
  revision: number;
  context: JobContext;
}): Promise<void> {
  const { creatorId, videoId, clipId, revision, context } = options;
  const { runtime, log, signal } = context;
  if (!isClipId(clipId) || !isId("video", videoId))
    throw new PermanentJobError("The job names no valid clip.");
  const table = tableOf(runtime);
  const storage = { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName };

  let clip = await findClipById({ table, creatorId, clipId, consistent: true });
  if (!clip) return log("clip is gone; nothing to render", { clipId });
  if (clip.videoId !== videoId) throw new PermanentJobError("The clip belongs to another video.");
  if (clip.revision !== revision)
    return log("a newer range was saved; its own job renders it", { clipId, revision });
  if (!clipNeedsRender(clip)) return log("this revision is already rendered", { clipId, revision });
  const video = await findVideoById({ table, creatorId, videoId, consistent: true });
  if (!video?.probe) return log("the clip's video is gone; nothing to render", { clipId });

  // Scored again first (a range edit is usually scored already, in its request; captions given
  // or removed since the analysis change a locally scored clip's speech sub-score): the same
  // inputs give the same score, and nothing is written.
  const inputs = await loadScoringInputs({ ...storage, creatorId, videoId, signal, log });
  const { signals, transcript } = inputs;
  const rescored = await rescoreClip({
    table,
    creatorId,
    clip,
    probe: video.probe,
    inputs,
    weights: context.runtime.config.analysis.scoringWeights,
  });
  if (!rescored) return log("a newer range was saved while re-scoring", { clipId, revision });
  clip = rescored;

  const toRender = clip;
  const probe = video.probe;
  const binaries = resolveMediaBinaries({
    ffmpegPath: runtime.config.analysis.ffmpegPath,
    ffprobePath: runtime.config.analysis.ffprobePath,
  });
  // Loads while the source downloads.
  void prepareRenderer(binaries.ffmpegPath);
  const workDir = await mkdtemp(path.join(os.tmpdir(), "truss-rerender-"));
  const render = (sourcePath: string, sourceHttpHeaders?: HttpHeaders) =>
    renderAndStoreClip({
      table,
      storage,
      creatorId,
      clip: toRender,
      sourcePath,
      sourceHttpHeaders,
      binaries,
      probe,
      signals,
      transcript,
      workDir,
      signal,
      log,
    });
  const stored = seekableStoredSource(video, probe);
  const downloadLocalCopy = async () => {
    const downloadedPath = path.join(workDir, "source");
    await downloadObjectToFile({
      ...storage,
      key: stored?.key ?? video.sourceKey,
      filePath: downloadedPath,
      ifMatch: stored ? stored.ifMatch : video.sourceEtag,
      signal,
    });
    // Only a capture without a stored copy still needs one made.
    return stored
      ? downloadedPath
      : ensureSeekableSource({
          binaries,
          sourcePath: downloadedPath,
          formatName: probe.formatName,
          durationSeconds: probe.durationSeconds,
          directory: workDir,
          deleteSourceOnceCopied: true,
          signal,
        });
  };
  try {
    const outcome = await renderFromStoredSource({
      ...storage,
      source: stored,
      signal,
      render,
      localSource: downloadLocalCopy,
      onFallback: (error) =>
        log("rendering from the stored URL failed; downloading it", { clipId, error: String(error) }),
    });
    log(outcome === "rendered" ? "clip rendered" : "clip changed while rendering; discarded", {
      clipId,
      revision,
    });
  } catch (error) {
    // Only this render fails (onGiveUp marks the clip): the video and its clips rendered from
    // the checked file stay as they are.
    if (error instanceof ObjectChangedError) throw new PermanentJobError(SOURCE_CHANGED_REASON);
    throw error;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
