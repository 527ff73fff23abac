import { copyFile, mkdir, mkdtemp, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buildAssDocument } from "@/engine/captions/build-ass-document";
import { buildCaptionCards } from "@/engine/captions/build-caption-cards";
import { findCaptionFont } from "@/engine/captions/find-caption-font";
import { type FaceDetector, loadFaceDetector } from "@/engine/faces/face-detector";
import { formatTimestamp } from "@/engine/format-timestamp";
import type {
  LayoutChoice,
  MediaProbe,
  RenderClipInput,
  RenderedClip,
  RenderLayout,
  SignalCurve,
  SubjectSampling,
} from "@/engine/types";
import { type MediaBinaries, resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { buildLoudnessFilter, type LoudnessMeasurement } from "@/media/loudness-args";
import { measureLoudness } from "@/media/loudness-measure";
import { hasVideoBetween } from "@/media/probe";
import { MediaCommandError, runMedia } from "@/media/run-ffmpeg";
import { VERTICAL_HEIGHT, VERTICAL_WIDTH, type VerticalLayoutOptions } from "@/media/vertical-crop-args";
import { analyzeSubject, lookCloserForFaces, scanKeyframes } from "./analyze-subject";
import { buildRenderArgs, type RenderAudio } from "./build-render-args";
import { chooseOutputFrameRate } from "./choose-output-frame-rate";
import {
  chooseSubjectPlan,
  fitWhereTheCropLosesTheSubject,
  type PictureChange,
  pictureKeepsChanging,
  type SubjectObservations,
  type SubjectPlan,
} from "./choose-subject-plan";
import { buildCropXExpression } from "./crop-path-expression";
import { findStillInsets, insetsAroundSmallFaces } from "./find-still-insets";
import { framesNeededWhateverTheFaces, keyframesSuffice } from "./keyframes-suffice";
import { parseProgressSeconds } from "./parse-progress";
import { pickThumbnailTime } from "./pick-thumbnail-time";
import { planCropPath, shareOfTargetsInView } from "./plan-crop-path";
import { refineSceneCuts } from "./refine-scene-cuts";
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
/** Share of the analysis for the keyframe scan, when frames are sampled after it. */
const KEYFRAME_SCAN_PROGRESS_SHARE = 0.2;
/**
 * Keyframe pairs a face cam's edges are found from; with fewer, the segment is sampled at 4 fps
 * (one pair in a 4 s clip mistook a quiet stretch of the game for the cam in testing).
 */
const MIN_PAIRS_FOR_FACECAM_EDGES = 4;
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
            dependencies,
            log,
            progress,
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

type PlannedSubject = SubjectPlan & {
  cropXExpression: string;
  cutsSeconds: number[];
  sampling: SubjectSampling;
  /** The segment's audio, metered by the first pass (null: no summary, or no audio). */
  loudness: LoudnessMeasurement | null;
};

/** What the subject analysis saw, how, and how the picture changed (to place cuts exactly). */
type ObservedSubject = {
  observations: SubjectObservations;
  sampling: SubjectSampling;
  changes: PictureChange[];
};

async function planSubject(context: {
  input: RenderClipInput;
  choice: Exclude<LayoutChoice, "fit">;
  probe: MediaProbe;
  durationSeconds: number;
  cutsSeconds: number[];
  ffmpegPath: string;
  toneMapFilter: string | null;
  dependencies: RenderClipDependencies;
  log: (message: string) => void;
  progress: (fraction: number) => void;
}): Promise<PlannedSubject> {
  const { input, probe, durationSeconds, ffmpegPath, toneMapFilter, dependencies, log, progress } = context;
  let faceDetector = dependencies.faceDetector;
  if (faceDetector === undefined) {
    faceDetector = await loadFaceDetector().catch((error: unknown) => {
      log(
        `face detection unavailable, following motion only: ${error instanceof Error ? error.message : error}`,
      );
      return null;
    });
  }
  // The first pass over the segment also meters its audio (one ffmpeg run instead of two).
  let loudness: LoudnessMeasurement | null | undefined;
  const meterLoudness = () => probe.hasAudio && loudness === undefined;
  const keepLoudness = (metered: boolean, measured: LoudnessMeasurement | null | undefined) => {
    if (metered) loudness = measured ?? null;
  };
  const look = {
    ffmpegPath,
    sourcePath: input.sourcePath,
    sourceHttpHeaders: input.sourceHttpHeaders,
    startSeconds: input.startSeconds,
    durationSeconds,
    sourceWidth: probe.width,
    sourceHeight: probe.height,
    faceDetector,
    toneMapFilter,
    signal: input.signal,
  };
  const sampleFramesAt4Fps = async (afterScan: boolean): Promise<ObservedSubject> => {
    const metered = meterLoudness();
    const { observations, loudness: measured } = await analyzeSubject({
      ...look,
      meterLoudness: metered,
      videoDecoderThreads: subjectPassDecoderThreads(input, durationSeconds, "frames"),
      videoCodec: probe.videoCodec,
      timeoutMs: 30_000 + durationSeconds * 3_000,
      onProgress: (fraction) => {
        const scanShare = afterScan ? KEYFRAME_SCAN_PROGRESS_SHARE : 0;
        progress((scanShare + (1 - scanShare) * fraction) * ANALYSIS_PROGRESS_SHARE);
      },
    });
    keepLoudness(metered, measured);
    return { observations, sampling: "frames", changes: observations.motionSamples };
  };
  const judged = {
    durationSeconds,
    motionPerSecond: input.motionPerSecond,
    startSeconds: input.startSeconds,
    cutsSeconds: context.cutsSeconds,
  };
  const observe = async (): Promise<ObservedSubject> => {
    // Where the source's keyframes (listed by the signal pass) are far apart and the picture
    // moves between them, no face on them could spare the 4 fps pass: go straight to it.
    const framesNeeded = framesNeededWhateverTheFaces({
      ...judged,
      sourceKeyframesSeconds: input.keyframesSeconds,
    });
    if (framesNeeded) {
      log(`subject from frames at 4 fps, no keyframe scan: ${framesNeeded}`);
      return sampleFramesAt4Fps(false);
    }
    // Keyframes first (a few percent of a decode); the segment is decoded again at 4 fps only
    // where they cannot show what the subject does.
    const metered = meterLoudness();
    const scan = await scanKeyframes({
      ...look,
      meterLoudness: metered,
      videoDecoderThreads: subjectPassDecoderThreads(input, durationSeconds, "keyframes"),
      timeoutMs: 30_000 + durationSeconds * 1_000,
    });
    keepLoudness(metered, scan.loudness);
    const verdict = keyframesSuffice({
      ...judged,
      keyframeTimesSeconds: scan.keyframeTimesSeconds,
      hasFaces: scan.faceSamples.some((sample) => sample.faces.length > 0),
    });
    progress(KEYFRAME_SCAN_PROGRESS_SHARE * ANALYSIS_PROGRESS_SHARE);
    const fromKeyframes: ObservedSubject = {
      observations: { faceSamples: scan.faceSamples, motionSamples: [], changeMap: scan.changeMap },
      sampling: "keyframes",
      changes: scan.changes,
    };
    if (verdict.suffice) {
      log(`subject from keyframes: ${verdict.reason}`);
      return fromKeyframes;
    }
    // A face cam holds still, so keyframes enough to find its edges show all it needs: a small
    // one over a game, found by looking closer at them, spares the 4 fps pass.
    if ((scan.changeMap?.pairs ?? 0) >= MIN_PAIRS_FOR_FACECAM_EDGES) {
      const facecam = await facecamLookingCloser(fromKeyframes);
      if (facecam) return facecam;
    }
    log(`subject from frames at 4 fps: ${verdict.reason}`);
    return sampleFramesAt4Fps(true);
  };

  const cropWidthFraction = Math.min(1, (probe.height * 9) / 16 / probe.width);
  const planFrom = ({ observations, changes }: ObservedSubject) =>
    chooseSubjectPlan({ observations, cropWidthFraction, pictureChanges: changes, choice: context.choice });
  // A closer look that found nothing is not repeated on the same segment: its keyframes' change
  // map already showed a still cam clearly (0–2 luma levels against a game's 7–25).
  let lookedCloserInVain = false;
  /**
   * A face cam whose face is too small, or too faint, for the whole frame: where the picture
   * keeps changing (a game), the still insets set into it and the places small faces were
   * glimpsed are looked at closely on the keyframes. What was observed, with the faces found
   * there, when they make a face cam; null otherwise.
   */
  const facecamLookingCloser = async (observed: ObservedSubject): Promise<ObservedSubject | null> => {
    if (
      lookedCloserInVain ||
      context.choice === "crop" ||
      !faceDetector ||
      !pictureKeepsChanging(observed.changes)
    ) {
      return null;
    }
    const { changeMap, faceSamples: seen } = observed.observations;
    const insets = [
      ...(changeMap ? findStillInsets(changeMap, probe.width / probe.height) : []),
      ...insetsAroundSmallFaces(seen),
    ];
    if (insets.length === 0) return null;
    let closerLook: Awaited<ReturnType<typeof lookCloserForFaces>>;
    try {
      closerLook = await lookCloserForFaces({
        ...look,
        faceDetector,
        insets,
        videoDecoderThreads: subjectPassDecoderThreads(input, durationSeconds, "keyframes"),
        timeoutMs: 30_000 + durationSeconds * 1_000,
      });
    } catch (error) {
      // A second opinion only: the plan from the whole frame stands.
      input.signal?.throwIfAborted();
      log(`looking closer for a face cam failed: ${error instanceof Error ? error.message : error}`);
      lookedCloserInVain = true;
      return null;
    }
    const { faceSamples } = closerLook;
    const closer = { ...observed, observations: { ...observed.observations, faceSamples } };
    const isFacecam = planFrom(closer).layout === "facecam";
    const facesSeen = faceSamples.filter((sample) => sample.faces.length > 0).length;
    log(
      `looked closer at ${insets.length} inset${insets.length === 1 ? "" : "s"} on ${faceSamples.length} ${closerLook.sampling === "keyframes" ? "keyframes" : "frames"}: faces on ${facesSeen}${isFacecam ? ", a face cam" : ", no face cam"}`,
    );
    if (!isFacecam) {
      lookedCloserInVain = true;
      return null;
    }
    return closer;
  };
  /** The plan from what was observed, or the face cam a closer look finds where that is none. */
  const planLookingCloser = async (
    observed: ObservedSubject,
  ): Promise<{ observed: ObservedSubject; plan: SubjectPlan }> => {
    const plan = planFrom(observed);
    const facecam = plan.layout === "facecam" ? null : await facecamLookingCloser(observed);
    return facecam ? { observed: facecam, plan: planFrom(facecam) } : { observed, plan };
  };
  let { observed, plan } = await planLookingCloser(await observe());
  // A face cam's edges show where the picture around it keeps changing: a few keyframes are
  // too few pictures to tell a quiet patch of the game from the cam.
  if (
    plan.layout === "facecam" &&
    observed.sampling === "keyframes" &&
    (observed.observations.changeMap?.pairs ?? 0) < MIN_PAIRS_FOR_FACECAM_EDGES
  ) {
    log("a face cam seen on a few keyframes: frames at 4 fps to find its edges");
    ({ observed, plan } = await planLookingCloser(await sampleFramesAt4Fps(true)));
  }
  const { sampling, changes } = observed;
  const cutsSeconds = refineSceneCuts({
    cutsSeconds: context.cutsSeconds,
    changes,
  });
  const cropPath =
    plan.layout === "crop"
      ? planCropPath({ targets: plan.targets, durationSeconds, cutsSeconds, cropWidthFraction })
      : [];
  // The creator's own choice of a crop stands; the automatic one must show its subject.
  const framed =
    context.choice === "auto"
      ? fitWhereTheCropLosesTheSubject(plan, shareOfTargetsInView(cropPath, plan.targets, cropWidthFraction))
      : plan;
  const path = framed.layout === "crop" ? cropPath : [];
  return {
    ...framed,
    cropXExpression: buildCropXExpression(path),
    cutsSeconds,
    sampling,
    loudness: loudness ?? null,
  };
}

/**
 * Decoder threads for a subject pass. Its frames are analysed in this process (luma, motion,
 * faces) while ffmpeg decodes, and ffmpeg's default (a frame thread per core, plus one) only
 * makes the two fight over the cores: on two cores, one decoder thread sampled an 18 s segment
 * at 4 fps in 1.12 s and 1.53 CPU-s, against 1.16 s and 1.75 CPU-s by default. So the decoder
 * leaves a core to the analysis. A keyframe scan decodes a few keyframes one by one, where each
 * extra thread costs its start-up: one thread (0.25 s against 0.37 s for a 20 s segment with
 * three keyframes). Where keyframes come more than once a second (an all-intra source: every
 * frame is decoded) or their times are unknown, the decoder keeps its default.
 */
function subjectPassDecoderThreads(
  input: RenderClipInput,
  durationSeconds: number,
  pass: "keyframes" | "frames",
): number | undefined {
  if (!input.keyframesSeconds) return undefined;
  const endSeconds = input.startSeconds + durationSeconds;
  const keyframesInSegment = input.keyframesSeconds.filter(
    (seconds) => seconds >= input.startSeconds && seconds < endSeconds,
  ).length;
  if (keyframesInSegment > durationSeconds) return undefined;
  return pass === "keyframes" ? 1 : Math.max(1, os.availableParallelism() - 1);
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
