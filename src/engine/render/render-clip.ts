import { copyFile, mkdir, mkdtemp, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildAssDocument } from "@/engine/captions/build-ass-document";
import { buildCaptionCards } from "@/engine/captions/build-caption-cards";
import { findCaptionFont } from "@/engine/captions/find-caption-font";
import { type FaceDetector, loadFaceDetector } from "@/engine/faces/face-detector";
import { formatTimestamp } from "@/engine/format-timestamp";
import type { RenderClipInput, RenderedClip, RenderLayout, SignalCurve } from "@/engine/types";
import { type MediaBinaries, resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { buildLoudnessFilter, type LoudnessMeasurement } from "@/media/loudness-args";
import { measureLoudness } from "@/media/loudness-measure";
import { hasVideoBetween } from "@/media/probe";
import { MediaCommandError, runMedia } from "@/media/run-ffmpeg";
import { VERTICAL_HEIGHT, VERTICAL_WIDTH, type VerticalLayoutOptions } from "@/media/vertical-crop-args";
import { buildRenderArgs, type RenderAudio } from "./build-render-args";
import { chooseOutputFrameRate } from "./choose-output-frame-rate";
import { parseProgressSeconds } from "./parse-progress";
import { pickThumbnailTime } from "./pick-thumbnail-time";
import { planSubject } from "./plan-subject";
import { getRenderCapabilities, toneMapFilterFor } from "./render-capabilities";

export type RenderClipDependencies = {
  /** Defaults to `resolveMediaBinaries()` (system ffmpeg ≥ 5, else the npm build). */
  binaries?: MediaBinaries;
  /** Defaults to the offline BlazeFace detector; null renders with motion saliency only. */
  faceDetector?: FaceDetector | null;
  /** Where decisions and fallbacks are reported (captions skipped, detector unavailable…). */
  log?: (message: string) => void;
  /** Parent of the per-render work directory; defaults to os.tmpdir(). */
  temporaryDirectory?: string;
};

/**
 * What a render takes from the source's signal curve: the scene cuts, the per-second motion and
 * the keyframe times (none of them when the curve is unknown).
 */
export function renderHintsFrom(
  signals: SignalCurve | undefined,
): Pick<RenderClipInput, "sceneCutsSeconds" | "motionPerSecond" | "keyframesSeconds"> {
  return {
    sceneCutsSeconds: signals?.sceneCutsSeconds ?? [],
    motionPerSecond: signals?.motion,
    keyframesSeconds: signals?.keyframesSeconds,
  };
}

/**
 * Starts what a process's first render would otherwise wait for: ffmpeg's capability probes and
 * the face detector (together ~1 s: a cold first clip took 6.1–6.3 s, the same clip again
 * 5.1–5.3). Call it when renders will follow, so that this happens while other work (a download,
 * the analysis) is under way. Both stay cached for the process, so calling it again costs
 * nothing. Failures are not reported here: the render meets them again and says so.
 */
export async function prepareRenderer(ffmpegPath: string): Promise<void> {
  await Promise.allSettled([getRenderCapabilities(ffmpegPath), loadFaceDetector()]);
}

/** Share of the progress bar for analysis; the encode takes the rest (measured ≈ 10–15%). */
const ANALYSIS_PROGRESS_SHARE = 0.12;
/** Prefix of the per-render temporary directory under os.tmpdir(). */
export const RENDER_TEMP_PREFIX = "truss-render-work-";

/**
 * Renders one clip as a 1080×1920 short: subject-aware 9:16 crop (or a blurred-background fit,
 * or the vertical source as it is), loudness normalised to −14 LUFS, captions burned in when a
 * transcript is given, plus a thumbnail and a ~3 s animated preview. Work happens in a private
 * temporary directory; the outputs are moved into `outputDir` only when all three exist, and
 * the directory is removed whatever happens (failure, timeout, cancellation).
 */
export async function renderClip(
  input: RenderClipInput,
  dependencies: RenderClipDependencies = {},
): Promise<RenderedClip> {
  const { probe, signal, startSeconds } = input;
  const log =
    dependencies.log ?? ((message: string) => console.info(`[render ${input.baseName}] ${message}`));
  const endSeconds =
    probe.durationSeconds > 0 ? Math.min(input.endSeconds, probe.durationSeconds) : input.endSeconds;
  const durationSeconds = endSeconds - startSeconds;
  if (!probe.hasVideo) throw new Error("Cannot render a clip: the source has no video stream");
  if (!(startSeconds >= 0) || !(durationSeconds >= 0.2)) {
    throw new Error(
      `Cannot render ${startSeconds}–${input.endSeconds} s of a ${probe.durationSeconds} s source: the range is empty`,
    );
  }
  signal?.throwIfAborted();

  const binaries = dependencies.binaries ?? resolveMediaBinaries();
  const { ffmpegPath } = binaries;
  const progress = monotonicProgress(input.onProgress);
  progress(0);

  const temporaryDirectory = dependencies.temporaryDirectory ?? os.tmpdir();
  const workDirectory = await mkdtemp(path.join(temporaryDirectory, RENDER_TEMP_PREFIX));
  const moved: string[] = [];
  try {
    const capabilities = await getRenderCapabilities(ffmpegPath);
    // The LUT stays beside the work directories for the next clip (a worker's temporary
    // directory is its own and goes when it stops).
    const toneMapFilter = await toneMapFilterFor(probe.dynamicRange, ffmpegPath, temporaryDirectory);
    if (probe.dynamicRange !== "sdr") {
      log(
        toneMapFilter
          ? `colours: HDR (${probe.dynamicRange}) tone-mapped to SDR BT.709`
          : `colours: an HDR (${probe.dynamicRange}) source, but this ffmpeg has no zscale/tonemap/lut3d filters: rendered without tone mapping`,
      );
    }
    const isVertical = probe.height > probe.width;
    // Without display dimensions there is no crop to plan: show the whole picture.
    const canCrop = !isVertical && probe.width > 0 && probe.height > 0;
    const choice = input.layoutChoice ?? "auto";
    const cutsSeconds = input.sceneCutsSeconds
      .map((cut) => cut - startSeconds)
      .filter((cut) => cut > 0 && cut < durationSeconds);

    // The whole frame needs no subject: a creator who chose it is spared the analysis.
    const subjectPlan =
      !canCrop || choice === "fit"
        ? null
        : await planSubject({
            input,
            choice,
            probe,
            durationSeconds,
            cutsSeconds,
            ffmpegPath,
            toneMapFilter,
            faceDetector: dependencies.faceDetector,
            log,
            progress: (fraction) => progress(fraction * ANALYSIS_PROGRESS_SHARE),
          });
    // The subject pass meters the audio as it reads the segment; without one, a pass of its own.
    const loudness = !probe.hasAudio
      ? null
      : subjectPlan
        ? subjectPlan.loudness
        : await measureSegmentLoudness(input, durationSeconds, ffmpegPath, log);
    progress(ANALYSIS_PROGRESS_SHARE);

    const dimensions = { sourceWidth: probe.width, sourceHeight: probe.height };
    const layout: VerticalLayoutOptions = isVertical
      ? { layout: "native-vertical", ...dimensions }
      : subjectPlan?.layout === "crop"
        ? { layout: "crop", cropXExpression: subjectPlan.cropXExpression, sourceHeight: probe.height }
        : subjectPlan?.layout === "facecam"
          ? { layout: "facecam", facecam: subjectPlan.facecam, ...dimensions }
          : { layout: "fit", ...dimensions };
    const renderLayout: RenderLayout = layout.layout;
    if (subjectPlan) log(`layout ${renderLayout}: ${subjectPlan.reason}`);
    else if (choice !== "auto") log(`layout ${renderLayout}: the creator chose ${choice}`);

    const captions = await prepareCaptions(input, endSeconds, workDirectory, capabilities.subtitles, log);
    const previewFormat = capabilities.animatedWebp ? "webp" : "mp4";
    const work = {
      video: path.join(workDirectory, "clip.mp4"),
      thumbnail: path.join(workDirectory, "thumbnail.jpg"),
      preview: path.join(workDirectory, `preview.${previewFormat}`),
    };
    const audio: RenderAudio = probe.hasAudio
      ? {
          kind: "source",
          // A measurement needs only volume and alimiter; without one, loudnorm (if built in).
          filter: loudness || capabilities.loudnorm ? buildLoudnessFilter(loudness) : "aresample=48000",
        }
      : { kind: "silent" };

    const thumbnailSeconds = pickThumbnailTime({
      highlights: subjectPlan?.highlights ?? [],
      durationSeconds,
      cutsSeconds: subjectPlan?.cutsSeconds ?? cutsSeconds,
    });
    await runMedia({
      binaryPath: ffmpegPath,
      args: buildRenderArgs({
        sourcePath: input.sourcePath,
        sourceHttpHeaders: input.sourceHttpHeaders,
        startSeconds,
        durationSeconds,
        layout,
        toneMapFilter,
        squarePixelSize: probe.sampleAspectRatio === 1 ? null : { width: probe.width, height: probe.height },
        outputFramesPerSecond: chooseOutputFrameRate(probe),
        decoderThreads: os.availableParallelism(),
        captions,
        audio,
        videoPath: work.video,
        thumbnail: { path: work.thumbnail, atSeconds: thumbnailSeconds },
        preview: { format: previewFormat, path: work.preview },
      }),
      // Generous: a 1080×1920 encode runs at ~0.3–1× real time on two busy cores.
      timeoutMs: 60_000 + durationSeconds * 10_000,
      signal,
      onStderrLine: (line) => {
        const seconds = parseProgressSeconds(line);
        if (seconds !== null) {
          progress(
            ANALYSIS_PROGRESS_SHARE + (1 - ANALYSIS_PROGRESS_SHARE) * Math.min(1, seconds / durationSeconds),
          );
        }
      },
    }).catch(async (error: unknown) => {
      // With no frame at all, ffmpeg fails to start the encoder ("Error submitting video frame
      // to the encoder"): say what is wrong with the source instead.
      const pictureMissing =
        error instanceof MediaCommandError &&
        !error.details.timedOut &&
        !signal?.aborted &&
        !(await hasVideoBetween({
          binaries,
          input: input.sourcePath,
          httpHeaders: input.sourceHttpHeaders,
          startSeconds,
          endSeconds,
          signal,
        }).catch(() => true));
      if (!pictureMissing) throw error;
      throw new Error(
        `The source shows no picture from ${formatTimestamp(startSeconds)} to ${formatTimestamp(endSeconds)} (its video may be cut short or damaged there)`,
        { cause: error },
      );
    });

    // ffmpeg ends without error when an output got no frames: the picture stopped inside the range.
    for (const [key, atSeconds] of [
      ["video", 0],
      ["thumbnail", thumbnailSeconds],
      ["preview", 0],
    ] as const) {
      if (!(await hasContent(work[key]))) {
        throw new Error(
          `The render wrote no ${key}: the source shows no picture at ${formatTimestamp(startSeconds + atSeconds)} (its video may be cut short or damaged there)`,
        );
      }
    }

    await mkdir(input.outputDir, { recursive: true });
    const final = {
      video: path.join(input.outputDir, `${input.baseName}.mp4`),
      thumbnail: path.join(input.outputDir, `${input.baseName}.jpg`),
      preview: path.join(input.outputDir, `${input.baseName}.preview.${previewFormat}`),
    };
    for (const key of ["video", "thumbnail", "preview"] as const) {
      signal?.throwIfAborted();
      await moveFile(work[key], final[key]);
      moved.push(final[key]);
    }
    progress(1);
    return {
      videoPath: final.video,
      thumbnailPath: final.thumbnail,
      previewPath: final.preview,
      layout: renderLayout,
      subjectSampling: subjectPlan?.sampling ?? null,
      width: VERTICAL_WIDTH,
      height: VERTICAL_HEIGHT,
      durationSeconds,
    };
  } catch (error) {
    // A half-delivered clip is worse than none: the caller retries the whole render.
    await Promise.all(moved.map((file) => unlink(file).catch(() => undefined)));
    throw error;
  } finally {
    await rm(workDirectory, { recursive: true, force: true });
  }
}

async function measureSegmentLoudness(
  input: RenderClipInput,
  durationSeconds: number,
  ffmpegPath: string,
  log: (message: string) => void,
): Promise<LoudnessMeasurement | null> {
  try {
    return await measureLoudness({
      ffmpegPath,
      input: input.sourcePath,
      httpHeaders: input.sourceHttpHeaders,
      startSeconds: input.startSeconds,
      durationSeconds,
      timeoutMs: 20_000 + durationSeconds * 1_000,
      signal: input.signal,
    });
  } catch (error) {
    if (input.signal?.aborted) throw error;
    log(
      `loudness measurement failed, normalising in one pass: ${error instanceof Error ? error.message : error}`,
    );
    return null;
  }
}

async function prepareCaptions(
  input: RenderClipInput,
  endSeconds: number,
  workDirectory: string,
  hasSubtitlesFilter: boolean,
  log: (message: string) => void,
): Promise<{ assPath: string; fontsDirectory: string | null } | null> {
  if (!input.transcript || input.transcript.length === 0) return null;
  const cards = buildCaptionCards({
    segments: input.transcript,
    clipStartSeconds: input.startSeconds,
    clipEndSeconds: endSeconds,
  });
  if (cards.length === 0) return null;
  if (!hasSubtitlesFilter) {
    log("captions skipped: this ffmpeg has no subtitles filter (libass)");
    return null;
  }
  const font = findCaptionFont();
  let fontsDirectory: string | null = null;
  if (font.fontPath) {
    // A directory holding only the font: libass loads every file in `fontsdir`.
    fontsDirectory = path.join(workDirectory, "fonts");
    await mkdir(fontsDirectory);
    await copyFile(font.fontPath, path.join(fontsDirectory, path.basename(font.fontPath)));
  }
  const assPath = path.join(workDirectory, "captions.ass");
  await writeFile(assPath, buildAssDocument({ cards, fontName: font.fontName }), "utf8");
  log(`captions: ${cards.length} cards burned in`);
  return { assPath, fontsDirectory };
}

function monotonicProgress(onProgress: ((fraction: number) => void) | undefined) {
  let last = -1;
  return (fraction: number) => {
    const clamped = Math.min(1, Math.max(0, fraction));
    if (!onProgress || clamped <= last) return;
    last = clamped;
    onProgress(clamped);
  };
}

async function hasContent(filePath: string): Promise<boolean> {
  const size = await stat(filePath).then(
    (stats) => stats.size,
    () => 0,
  );
  return size > 0;
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    // The temporary directory may be on another filesystem than the output directory.
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    await copyFile(from, to);
    await unlink(from);
  }
}
