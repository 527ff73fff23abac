import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { CopyObjectCommand } from "@aws-sdk/client-s3";
import { downsampleInterestCurve, putVideoChapters } from "@/db/repos/chapters-repo";
import {
  type Clip,
  clipNeedsRender,
  isEditedByCreator,
  listClipsByVideo,
  renderObjectKeys,
  setClipRenderStatus,
  upsertClipsForVideo,
} from "@/db/repos/clip-repo";
import { findCreatorById } from "@/db/repos/creator-repo";
import { incrementDailyCounters } from "@/db/repos/daily-analytics-repo";
import {
  findVideoById,
  holdVideoPipeline,
  pipelineHoldEnd,
  releaseVideoPipeline,
  updateVideo,
  updateVideoStatus,
  type Video,
  type VideoStatus,
} from "@/db/repos/video-repo";
import type { Table } from "@/db/table";
import { createAnalyzer } from "@/engine/analyzers/create-analyzer";
import { createLocalAnalyzer } from "@/engine/analyzers/local-analyzer";
import { momentOptionsFor, sameClipOptions } from "@/engine/clip-options";
import { DEFAULT_SIGNAL_MODE, describeTooShortToClip } from "@/engine/defaults";
import { prepareRenderer } from "@/engine/render/render-clip";
import { extractSignals, SignalExtractionError } from "@/engine/signals/extract-signals";
import type { AnalysisResult, MediaProbe, SignalCurve } from "@/engine/types";
import { isoDateIn } from "@/lib/local-date";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { MediaProbeError, probeMedia } from "@/media/probe";
import type { HttpHeaders } from "@/media/probe-args";
import { ensureSeekableSource, needsSeekableCopy } from "@/media/seekable-copy";
import { isGoneOrChanged } from "@/server/errors";
import { tableOf } from "@/server/runtime";
import { purgeVideo } from "@/server/videos/purge-video";
import {
  readAnalysisArtifact,
  readAnalysisMadeFor,
  readSignalsArtifact,
  writeAnalysisArtifact,
  writeSignalsArtifact,
} from "@/storage/analysis-artifacts";
import { captionsTranscript, readCreatorTranscript } from "@/storage/creator-transcript";
import { ObjectChangedError } from "@/storage/object-changed";
import { type Bucket, deleteObjects, downloadObjectToFile, uploadFile } from "@/storage/object-io";
import { seekableCopyObjectKey, videoThumbnailObjectKey } from "@/storage/object-keys";
import { presignGet } from "@/storage/presign";
import { failureReasonOf } from "../failure-reason";
import type { JobContext, JobHandler } from "../job-types";
import { JobDeferredError, PermanentJobError } from "../job-types";
import { emailVideoOutcome } from "../notify/email-video-outcome";
import { momentsBesideEditedClips, momentsToFindBeside } from "./clip-pipeline/moments-beside-edited-clips";
import { keepPipelineHeld, newPipelineRunId, waitForHold } from "./clip-pipeline/pipeline-hold";
import { renderAndStoreClip } from "./clip-pipeline/render-and-store-clip";
import { createVideoProgress, type VideoProgress } from "./clip-pipeline/video-progress";
import { failVideo } from "./fail-video";
import { assertSourceUnchanged, failChangedSource } from "./pinned-source";
import { renderFromStoredSource, seekableStoredSource } from "./stored-source";

/**
 * Turns a QUEUED video into clips, stage by stage:
 *
 *   download source → signals (stored) → analysis (stored) → chapters + clip items →
 *   render each clip (one at a time) → READY
 *
 * Every stage is idempotent and its result is kept: the signals and the analysis as JSON
 * under the video's `analysis/` prefix, the clips as items with deterministic ids, each
 * render as the clip's READY state. A redelivered job (a crash, a timeout, a worker killed
 * mid-render) finds the video ANALYZING or RENDERING, skips what is done and carries on. One
 * run works on a video at a time: a copy of the job that finds another run holding it (one
 * still alive on another worker) goes back to the queue until that run lets go or its hold
 * lapses (pipeline-hold.ts).
 * The status moves QUEUED → ANALYZING → RENDERING → READY, each step conditional; when the
 * job gives up the video is FAILED with the reason.
 */

/** Share of the progress bar each stage fills (cumulative upper bounds, percent). */
const PROGRESS = { downloaded: 8, signals: 45, analysed: 58, saved: 60, rendered: 99 } as const;

const IN_PROGRESS: readonly VideoStatus[] = ["QUEUED", "ANALYZING", "RENDERING"];

export const analyzeVideoJob: JobHandler<"analyze-video"> = {
  run: (payload, context) => analyzeVideo({ ...payload, context }),
  onGiveUp: async ({ creatorId, videoId }, context, reason) => {
    const table = tableOf(context.runtime);
    // A run that gives up has let go of its hold by now: a live one is another run's (a copy that
    // took over, this job's message handed out again while its last attempt still ran) or that
    // of a run whose worker died moments ago. Asked again once it lapses: a live run renews it,
    // and its outcome stands; a dead one's lapses, and the video is failed then.
    const heldUntil = (await findVideoById({ table, creatorId, videoId, consistent: true }))
      ?.pipelineHeldUntil;
    if (heldUntil && Date.parse(heldUntil) > Date.now()) throw waitForHold(heldUntil);
    await failVideo({
      runtime: context.runtime,
      video: { creatorId, videoId },
      from: IN_PROGRESS,
      reason,
      log: context.log,
    });
  },
};

type PipelineState = {
  context: JobContext;
  table: Table;
  storage: Bucket;
  creatorId: string;
  video: Video;
  workDir: string;
  progress: VideoProgress;
  signal: AbortSignal;
  /** The source as downloaded, then as the engine reads it (a seekable copy, if it needs one). */
  downloadedPath: string | null;
  sourcePath: string | null;
  /** The stored artifacts as this run read or wrote them, so the render stage need not read them again. */
  analysis?: AnalysisResult;
  signals?: SignalCurve;
};

export async function analyzeVideo(options: { creatorId: string; videoId: string; context: JobContext }) {
  const { creatorId, videoId, context } = options;
  const { runtime, log } = context;
  const table = tableOf(runtime);
  let video = await findVideoById({ table, creatorId, videoId, consistent: true });
  if (!video) {
    log("video is gone; nothing to analyse", { videoId });
    return;
  }
  if (!IN_PROGRESS.includes(video.status)) {
    log(`video is ${video.status}; nothing to do`, { videoId });
    return;
  }
  // This run holds the video while it works (pipeline-hold.ts): a copy of the job finding it
  // held waits, rather than run the same stages on another worker.
  const runId = newPipelineRunId();
  const taken = await takeVideo(video, runId, context);
  if (!taken) return;
  video = taken;
  const hold = keepPipelineHeld({ table, creatorId, videoId, runId, holdMs: context.holdMs, log });

  const progress = createVideoProgress({
    table,
    creatorId,
    videoId,
    status: video.status,
    resumedFromPercent: video.progressPercent,
    log,
  });
  const workDir = await mkdtemp(path.join(os.tmpdir(), "truss-analyze-")).catch(async (error: unknown) => {
    await hold.release();
    throw error;
  });
  const state: PipelineState = {
    context,
    table,
    storage: { s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName },
    creatorId,
    video,
    workDir,
    progress,
    signal: AbortSignal.any([context.signal, progress.gone, hold.lost]),
    downloadedPath: null,
    sourcePath: null,
  };
  let outcome: "done" | "stopped" | "taken-over";
  try {
    outcome = await runStages(state);
  } catch (error) {
    const stoppedHere = (stop: AbortSignal) => stop.aborted && !context.signal.aborted;
    if (stoppedHere(hold.lost)) {
      log("another run has taken this video over; stopping", { videoId });
      outcome = "taken-over";
    } else if (stoppedHere(progress.gone)) {
      log("video was deleted or failed elsewhere; stopping", {
        videoId,
        reason: String(progress.gone.reason),
      });
      outcome = "stopped";
    } else {
      // Another file was stored over the one upload-complete checked (pinned-source.ts).
      if (error instanceof ObjectChangedError) throw await failChangedSource(runtime, video, log);
      // The file itself is the problem: trying again reads the same bytes.
      if (
        !state.signal.aborted &&
        ((error instanceof MediaProbeError && !error.mayPass) || error instanceof SignalExtractionError)
      ) {
        throw new PermanentJobError(error.message, { cause: error });
      }
      throw error;
    }
  } finally {
    try {
      await progress.settle();
      await rm(workDir, { recursive: true, force: true });
    } finally {
      // Let go at once, so the retry, or the run after a shutdown, need not wait for it to lapse.
      await hold.release();
    }
  }
  if (outcome === "stopped") await removeIfDeleted(state);
}

/**
 * Takes the video for run `runId`: QUEUED → ANALYZING with the run's hold, or the hold on an
 * ANALYZING or RENDERING video that no live run holds (a run resumed after a crash, a retry, a
 * hand-back). Returns the video as the run starts it, or null when there is nothing to do;
 * throws JobDeferredError while another run holds it.
 */
async function takeVideo(video: Video, runId: string, context: JobContext): Promise<Video | null> {
  const { creatorId, videoId } = video;
  const ids = { table: tableOf(context.runtime), creatorId, videoId };
  try {
    if (video.status === "QUEUED") {
      try {
        return await updateVideoStatus({
          ...ids,
          from: ["QUEUED"],
          to: "ANALYZING",
          stage: "Starting",
          progressPercent: 0,
          set: { pipelineRunId: runId, pipelineHeldUntil: pipelineHoldEnd(context.holdMs) },
        });
      } catch (error) {
        if (!isGoneOrChanged(error)) throw error;
        // Another delivery of this job (a copy the sweep queued) started it a moment ago: it is
        // running, and its own message comes back should its worker die. Two would run it twice.
        context.log("another delivery has just started this video; leaving it to that one", { videoId });
        return null;
      }
    }
    const held = await holdVideoPipeline({ ...ids, runId, holdMs: context.holdMs });
    if (held.kind === "held-elsewhere") throw waitForHold(held.heldUntil);
    // Read again under the hold: the run before this one may have moved it on since (to
    // RENDERING, say), and this run must start from there.
    const current = held.kind === "held" ? await findVideoById({ ...ids, consistent: true }) : undefined;
    if (current?.status === "ANALYZING" || current?.status === "RENDERING") return current;
    context.log("video left the pipeline meanwhile; nothing to do", { videoId });
    await releaseVideoPipeline({ ...ids, runId });
    return null;
  } catch (error) {
    // A write whose answer was lost may have taken the hold all the same: the retry must not wait
    // for it to lapse.
    if (!(error instanceof JobDeferredError))
      await releaseVideoPipeline({ ...ids, runId }).catch(() => undefined);
    throw error;
  }
}

/**
 * A video deleted while the job worked on it may have gained clips, chapters or renders after
 * the delete removed everything: remove those too, as the delete would have.
 */
async function removeIfDeleted(state: PipelineState): Promise<void> {
  const { table, creatorId, context } = state;
  const { videoId, sourceKey } = state.video;
  if (await findVideoById({ table, creatorId, videoId, consistent: true })) return;
  await purgeVideo(context.runtime, { creatorId, videoId, sourceKey, uploadId: null });
  context.log("removed what the job wrote for a video deleted meanwhile", { videoId });
}

async function runStages(state: PipelineState): Promise<"done" | "stopped"> {
  const { table, creatorId, context, progress } = state;
  const { videoId } = state.video;
  const binaries = resolveMediaBinaries({
    ffmpegPath: context.runtime.config.analysis.ffmpegPath,
    ffprobePath: context.runtime.config.analysis.ffprobePath,
  });
  // The clips render in this job: what the first one would wait for loads during the download
  // and the analysis instead.
  void prepareRenderer(binaries.ffmpegPath);
  let clips = await listClipsByVideo({ table, creatorId, videoId, consistent: true });

  if (state.video.status === "ANALYZING" || clips.length === 0) {
    // Clips the creator edited outlive a new analysis (other clips asked for): the new moments
    // are found and placed beside them, and away from those the creator deleted.
    const editedClips = clips.filter(isEditedByCreator);
    const analysis = await analysisStage(state, binaries, editedClips);
    clips = await saveStage(state, analysis, editedClips);
    if (state.video.status === "ANALYZING") {
      // A progress write still under the old status would fail after the move and read as
      // "the video left the pipeline": let it land first.
      await progress.settle();
      const moved = await moveStatus(
        table,
        state.video,
        ["ANALYZING"],
        "RENDERING",
        "Rendering clips",
        PROGRESS.saved,
        {
          analysis: { analyzer: analysis.analyzer, fallbackReason: analysis.fallbackReason },
          clipCount: clips.length,
        },
      );
      if (!moved) return "stopped";
      state.video = moved;
    }
  }
  progress.setStatus("RENDERING");

  await renderStage(state, clips, binaries);
  await finishStage(state);
  return "done";
}

// ── Stages ─────────────────────────────────────────────────────────────────────────────────

async function analysisStage(
  state: PipelineState,
  binaries: ReturnType<typeof resolveMediaBinaries>,
  editedClips: Clip[],
): Promise<AnalysisResult> {
  const { storage, creatorId, progress, signal, context } = state;
  const { videoId } = state.video;
  const ref = { ...storage, creatorId, videoId, signal };
  const { clipOptions, deletedClipRanges } = state.video;
  const momentsAskedFor = momentsToFindBeside(clipOptions.count, editedClips, deletedClipRanges);
  const earlier = await readAnalysisMadeFor(ref);
  if (
    earlier &&
    sameClipOptions(earlier.clipOptions, clipOptions) &&
    earlier.momentsAskedFor === momentsAskedFor
  ) {
    context.log("analysis already stored; skipping signals and analysis", { videoId });
    state.analysis = earlier.analysis;
    return earlier.analysis;
  }
  // Other clips were asked for since (recutVideo): found again from the stored signals.
  if (earlier) context.log("other clips asked for; finding them again", { videoId, clipOptions });

  const probe = await ensureProbe(state, binaries);
  // A video under the automatic minimum still gives one clip, all of it (as the CLI does);
  // under SHORTEST_CLIP_SECONDS there is nothing to clip.
  const tooShort = describeTooShortToClip(probe.durationSeconds);
  if (tooShort) throw new PermanentJobError(tooShort);
  let signals = await readSignalsArtifact(ref);
  if (!signals) {
    const sourcePath = await ensureSource(state, binaries);
    await progress.stage("Measuring sound and motion", PROGRESS.downloaded);
    signals = await extractSignals({
      binaries,
      input: sourcePath,
      probe,
      mode: DEFAULT_SIGNAL_MODE,
      signal,
      onProgress: (fraction) =>
        progress.tick(PROGRESS.downloaded + fraction * (PROGRESS.signals - PROGRESS.downloaded)),
    });
    await writeSignalsArtifact({ ...ref, signals });
  }
  state.signals = signals;

  const findingMoments = () => progress.stage("Finding the best moments", PROGRESS.signals);
  await findingMoments();
  const transcript = await readCreatorTranscript({ ...ref, log: context.log });
  const analyzer = createAnalyzer({
    analysisConfig: context.runtime.config.analysis,
    local: createLocalAnalyzer(),
  });
  // Gemini fetches the URL itself and sends no If-Match: the object is checked just before.
  if (analyzer.name === "gemini") await assertSourceUnchanged(context.runtime, state.video, signal);
  const sourceUrl =
    analyzer.name === "gemini"
      ? (
          await presignGet({
            client: context.runtime.clients.s3,
            bucket: storage.bucket,
            key: state.video.sourceKey,
            // Gemini may take a while to fetch a long video.
            expiresInSeconds: 60 * 60,
          })
        ).url
      : undefined;
  const analysis = await state.progress.keepAliveWhile(
    analyzer.analyze({
      sourceFile: async () => {
        const sourcePath = await ensureSource(state, binaries);
        await findingMoments();
        return sourcePath;
      },
      sourceUrl,
      probe,
      signals,
      transcript,
      options: {
        ...momentOptionsFor(clipOptions, context.runtime.config.analysis.scoringWeights),
        topN: momentsAskedFor,
      },
      signal,
    }),
  );
  // The stored analysis keeps only a transcript it generated: the creator's own file is read
  // again at render time (captionsTranscript), so a file replaced or removed later counts.
  const stored: AnalysisResult = transcript ? { ...analysis, transcript: [] } : analysis;
  await writeAnalysisArtifact({ ...ref, analysis: stored, clipOptions, momentsAskedFor });
  state.analysis = stored;
  if (analysis.fallbackReason)
    context.log("Gemini's answer was not used", { reason: analysis.fallbackReason });
  return stored;
}

async function saveStage(
  state: PipelineState,
  analysis: AnalysisResult,
  editedClips: Clip[],
): Promise<Clip[]> {
  const { table, creatorId, progress } = state;
  const { videoId, filename } = state.video;
  await progress.stage("Saving clips and chapters", PROGRESS.analysed);
  await putVideoChapters({
    table,
    creatorId,
    videoId,
    chapters: analysis.chapters,
    interestCurve: downsampleInterestCurve(analysis.interestCurve),
  });
  const { clips, removed } = await upsertClipsForVideo({
    table,
    creatorId,
    videoId,
    videoTitle: filename,
    moments: momentsBesideEditedClips(
      analysis.moments,
      editedClips,
      state.video.clipOptions.count,
      state.video.deletedClipRanges,
    ),
  });
  if (removed.length > 0) {
    state.context.log("removed clips of an earlier analysis", { count: removed.length });
    // Their renders go with them (other clips were asked for), rather than wait for the video's delete.
    const keys = removed.flatMap(({ render }) => (render ? renderObjectKeys(render) : []));
    await deleteObjects({ ...state.storage, keys }).catch((error: unknown) =>
      state.context.log("left the renders of removed clips", { error: String(error) }),
    );
  }
  return clips;
}

async function renderStage(
  state: PipelineState,
  clips: Clip[],
  binaries: ReturnType<typeof resolveMediaBinaries>,
): Promise<void> {
  const { table, storage, creatorId, progress, signal, context } = state;
  const { videoId } = state.video;
  const owed = clips.filter(clipNeedsRender);
  if (owed.length === 0) return;
  const ref = { ...storage, creatorId, videoId, signal };
  const analysis = state.analysis ?? (await readAnalysisArtifact(ref));
  const signals = state.signals ?? (await readSignalsArtifact(ref));
  const transcript = await captionsTranscript({
    ...storage,
    creatorId,
    videoId,
    signal,
    log: context.log,
    generated: analysis?.transcript,
  });
  const probe = await ensureProbe(state, binaries);
  // With no copy on disk yet (other clips asked for, or a job resumed at its renders), clips are
  // cut from the stored file where it is, not after downloading all of it for a few clips; a
  // file ffmpeg cannot seek in over HTTP is downloaded once, and the rest cut from that.
  let stored = state.sourcePath || state.downloadedPath ? null : seekableStoredSource(state.video, probe);
  const renderClipFromSource = async (clip: Clip, onProgress: (fraction: number) => void) => {
    const renderFrom = (sourcePath: string, sourceHttpHeaders?: HttpHeaders) =>
      renderAndStoreClip({
        table,
        storage,
        creatorId,
        clip,
        sourcePath,
        sourceHttpHeaders,
        binaries,
        probe,
        signals,
        transcript,
        workDir: state.workDir,
        signal,
        onProgress,
        log: context.log,
      });
    return renderFromStoredSource({
      ...storage,
      source: stored,
      signal,
      render: renderFrom,
      localSource: () => ensureSource(state, binaries),
      onFallback: (error) => {
        context.log("rendering from the stored file failed; downloading it", {
          clipId: clip.clipId,
          error: String(error),
        });
        // The clips after it are cut from the copy too.
        stored = null;
      },
    });
  };
  const done = clips.length - owed.length;
  const failureReasons: string[] = [];
  for (const [index, clip] of owed.entries()) {
    const position = done + index;
    const span = (PROGRESS.rendered - PROGRESS.saved) / clips.length;
    const base = PROGRESS.saved + span * position;
    await progress.stage(`Rendering clip ${position + 1} of ${clips.length}`, base);
    try {
      const outcome = await renderClipFromSource(clip, (fraction) => progress.tick(base + span * fraction));
      if (outcome === "stale")
        context.log("clip changed, or its own job rendered it, meanwhile; left to that job", {
          clipId: clip.clipId,
        });
    } catch (error) {
      // A replaced source fails the video (the job's handler), not just this clip.
      if (signal.aborted || !context.isFinalAttempt || error instanceof ObjectChangedError) throw error;
      // Last attempt: one clip that will not render must not cost the video its other clips.
      const reason = failureReasonOf(error);
      failureReasons.push(reason);
      context.log("clip failed to render; continuing with the others", {
        clipId: clip.clipId,
        error: error instanceof Error ? error.message : String(error),
      });
      await setClipRenderStatus({
        table,
        creatorId,
        clipId: clip.clipId,
        revision: clip.revision,
        status: "FAILED",
        failureReason: `This clip could not be rendered: ${reason}`,
      });
    }
  }
  if (failureReasons.length > 0 && failureReasons.length === owed.length && done === 0) {
    throw new PermanentJobError(`None of the clips could be rendered. The first: ${failureReasons[0]}`);
  }
}

async function finishStage(state: PipelineState): Promise<void> {
  const { table, creatorId, context } = state;
  const { videoId } = state.video;
  const clips = await listClipsByVideo({ table, creatorId, videoId, consistent: true });
  const thumbnailKey = await ensureVideoThumbnail(state, clips);
  const stage = clips.length === 0 ? "No moment stood out enough to make a clip" : null;
  await state.progress.settle();
  // Counted once, when first ready: other clips asked for later are no new video processed.
  const firstTime = state.video.processedAt === null;
  const ready = await moveStatus(table, state.video, ["RENDERING"], "READY", stage, 100, {
    clipCount: clips.length,
    // Stalls are counted per run: other clips asked for later start with none.
    requeueCount: 0,
    ...(thumbnailKey ? { thumbnailKey } : {}),
    ...(firstTime ? { processedAt: new Date().toISOString() } : {}),
  });
  // Null too when another delivery made it ready: only the one that did counts it.
  if (!ready) return;
  context.log("video ready", { videoId, clips: clips.length });
  if (!firstTime) return;
  const durationSeconds = ready.probe?.durationSeconds ?? 0;
  const creator = await findCreatorById({ table, creatorId }).catch(() => undefined);
  // Counted on the creator's calendar day, as their dashboard shows the days.
  await incrementDailyCounters({
    table,
    creatorId,
    isoDate: isoDateIn(creator?.timezone ?? "UTC"),
    counters: {
      videosProcessed: 1,
      clipsCreated: clips.length,
      minutesAnalyzed: Math.round((durationSeconds / 60) * 100) / 100,
    },
  }).catch((error: unknown) =>
    context.log("could not count the video in analytics", { error: String(error) }),
  );
  // Other clips asked for later are waited for on the page: only the first READY is emailed.
  await emailVideoOutcome({
    runtime: context.runtime,
    creator,
    video: ready,
    outcome: { kind: "ready", clips: clips.filter((clip) => clip.status === "READY") },
    log: context.log,
  });
}

// ── Helpers ────────────────────────────────────────────────────────────────────────────────

/**
 * Moves the video's status; when another delivery got there first (the video is already at or
 * past `to`), returns the video as it is now, and null when it left the pipeline (deleted,
 * failed) so the job should stop.
 */
async function moveStatus(
  table: Table,
  video: Video,
  from: readonly VideoStatus[],
  to: VideoStatus,
  stage: string | null,
  progressPercent: number,
  set?: Parameters<typeof updateVideoStatus>[0]["set"],
): Promise<Video | null> {
  try {
    return await updateVideoStatus({
      table,
      creatorId: video.creatorId,
      videoId: video.videoId,
      from,
      to,
      stage,
      progressPercent,
      set,
    });
  } catch (error) {
    if (!isGoneOrChanged(error)) throw error;
    const current = await findVideoById({
      table,
      creatorId: video.creatorId,
      videoId: video.videoId,
      consistent: true,
    });
    if (!current) return null;
    const order: VideoStatus[] = ["QUEUED", "ANALYZING", "RENDERING", "READY"];
    const reached = order.indexOf(current.status) >= order.indexOf(to) && current.status !== "FAILED";
    return reached && to !== "READY" ? current : null;
  }
}

async function ensureProbe(
  state: PipelineState,
  binaries: ReturnType<typeof resolveMediaBinaries>,
): Promise<MediaProbe> {
  if (state.video.probe) return state.video.probe;
  // Ingest records the probe; a video that reached the queue without one is probed here.
  const downloadedPath = await downloadSource(state);
  const probe = await probeMedia({ binaries, input: downloadedPath, signal: state.signal });
  state.video = await updateVideo({
    table: state.table,
    creatorId: state.creatorId,
    videoId: state.video.videoId,
    set: { probe },
  });
  return probe;
}

/**
 * The source file the engine reads, made once per job: the download, or for a container that
 * cannot be cut exactly (a stream capture's MPEG-TS) a Matroska copy of it. The copy is stored
 * beside the source once, so a resumed job downloads it instead of copying again, and a
 * re-render of one clip seeks in it over HTTP instead of fetching the whole capture.
 */
async function ensureSource(
  state: PipelineState,
  binaries: ReturnType<typeof resolveMediaBinaries>,
): Promise<string> {
  if (state.sourcePath) return state.sourcePath;
  const probe = await ensureProbe(state, binaries);
  if (!needsSeekableCopy(probe.formatName)) {
    state.sourcePath = await downloadSource(state);
    return state.sourcePath;
  }
  const { seekableCopyKey } = state.video;
  if (seekableCopyKey) {
    state.sourcePath = await downloadObject(state, seekableCopyKey, "seekable-copy.mkv");
    return state.sourcePath;
  }
  const downloadedPath = await downloadSource(state);
  await state.progress.stage("Preparing the stream capture for cutting", Math.max(0, state.progress.percent));
  const sourcePath = await ensureSeekableSource({
    binaries,
    sourcePath: downloadedPath,
    formatName: probe.formatName,
    durationSeconds: probe.durationSeconds,
    directory: state.workDir,
    deleteSourceOnceCopied: true,
    signal: state.signal,
  });
  // The copy holds all the engine reads; the download is gone.
  state.downloadedPath = null;
  // Storing it only spares later jobs work: without it they copy the capture again.
  await storeSeekableCopy(state, sourcePath).catch((error: unknown) => {
    if (state.signal.aborted) throw error;
    state.context.log("could not store the seekable copy; re-renders will copy the capture again", {
      error: String(error),
    });
  });
  state.sourcePath = sourcePath;
  return sourcePath;
}

async function storeSeekableCopy(state: PipelineState, filePath: string): Promise<void> {
  const { storage, creatorId, signal } = state;
  const { videoId } = state.video;
  const key = seekableCopyObjectKey(creatorId, videoId);
  await uploadFile({ ...storage, key, filePath, contentType: "video/x-matroska", signal });
  state.video = await updateVideo({
    table: state.table,
    creatorId,
    videoId,
    set: { seekableCopyKey: key },
  });
}

/**
 * Streams the source from storage to the work directory, once per job: only the object
 * upload-complete checked (If-Match its ETag; ObjectChangedError for another).
 */
async function downloadSource(state: PipelineState): Promise<string> {
  if (state.downloadedPath) return state.downloadedPath;
  state.downloadedPath = await downloadObject(state, state.video.sourceKey, "source", state.video.sourceEtag);
  return state.downloadedPath;
}

async function downloadObject(
  state: PipelineState,
  key: string,
  fileName: string,
  ifMatch: string | null = null,
): Promise<string> {
  const { progress, storage, signal } = state;
  // A resumed job downloads again at a later stage: the bar must not jump back to 0.
  const from = Math.max(0, progress.percent);
  await progress.stage("Reading your video from storage", from);
  state.context.log("downloading the video", { key });
  const filePath = path.join(state.workDir, fileName);
  await downloadObjectToFile({
    ...storage,
    key,
    filePath,
    ifMatch,
    signal,
    onProgress: (written, total) => {
      if (total && from < PROGRESS.downloaded)
        progress.tick(from + (written / total) * (PROGRESS.downloaded - from));
    },
  });
  return filePath;
}

/**
 * The video's own thumbnail (for the library), when it has only the frame its check took (or
 * none): a copy of its best clip's, so it outlives that clip's re-renders.
 */
async function ensureVideoThumbnail(state: PipelineState, clips: Clip[]): Promise<string | null> {
  const { storage, creatorId } = state;
  const key = videoThumbnailObjectKey(creatorId, state.video.videoId);
  if (state.video.thumbnailKey === key) return null;
  const best = clips.find((clip) => clip.render);
  if (!best?.render) return null;
  await storage.s3.send(
    new CopyObjectCommand({
      Bucket: storage.bucket,
      Key: key,
      CopySource: `${storage.bucket}/${best.render.thumbnailKey}`,
      ContentType: "image/jpeg",
      MetadataDirective: "REPLACE",
    }),
    { abortSignal: state.signal },
  );
  return key;
}
