import os from "node:os";
import { type FaceDetector, loadFaceDetector } from "@/engine/faces/face-detector";
import type { LayoutChoice, MediaProbe, RenderClipInput, SubjectSampling } from "@/engine/types";
import type { LoudnessMeasurement } from "@/media/loudness-args";
import { analyzeSubject, lookCloserForFaces, scanKeyframes } from "./analyze-subject";
import {
  chooseSubjectPlan,
  fitWhereTheCropLosesTheSubject,
  type PictureChange,
  pictureKeepsChanging,
  type SubjectObservations,
  type SubjectPlan,
} from "./choose-subject-plan";
import { buildCropXExpression } from "./crop-path-expression";
import { chooseDecodeSplits } from "./decode-parts";
import { findStillInsets, insetsAroundSmallFaces } from "./find-still-insets";
import { framesNeededWhateverTheFaces, keyframesSuffice } from "./keyframes-suffice";
import { highlightsInView, planCropPath, shareOfTargetsInView } from "./plan-crop-path";
import { refineSceneCuts } from "./refine-scene-cuts";

/** Share of the plan's progress for the keyframe scan, when frames are sampled after it. */
const KEYFRAME_SCAN_PROGRESS_SHARE = 0.2;
/**
 * Keyframe pairs a face cam's edges are found from; with fewer, the segment is sampled at 4 fps
 * (one pair in a 4 s clip mistook a quiet stretch of the game for the cam in testing).
 */
const MIN_PAIRS_FOR_FACECAM_EDGES = 4;

export type PlannedSubject = SubjectPlan & {
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

/**
 * Where a clip's subject is and how to frame it: keyframes first where they can show it, frames
 * at 4 fps where they cannot, a closer look for a small face cam over a changing picture; then
 * the layout (crop, face cam or fit), the crop's path and the cuts it may jump at. The first
 * pass over the segment also meters its audio, so the render needs no loudness run of its own.
 */
export async function planSubject(context: {
  input: RenderClipInput;
  choice: Exclude<LayoutChoice, "fit">;
  probe: MediaProbe;
  durationSeconds: number;
  cutsSeconds: number[];
  ffmpegPath: string;
  toneMapFilter: string | null;
  /** Undefined: the offline detector, loaded once per process; null: motion saliency only. */
  faceDetector: FaceDetector | null | undefined;
  log: (message: string) => void;
  /** The plan's own progress, 0..1. */
  progress: (fraction: number) => void;
}): Promise<PlannedSubject> {
  const { input, probe, durationSeconds, ffmpegPath, toneMapFilter, log, progress } = context;
  let faceDetector = context.faceDetector;
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
    const decoding = framesPassDecoding(input, durationSeconds);
    if (decoding.decodeSplitsSeconds) {
      log(
        `4 fps pass decoded in ${decoding.decodeSplitsSeconds.length + 1} parts side by side, split at the keyframe${decoding.decodeSplitsSeconds.length === 1 ? "" : "s"} ${decoding.decodeSplitsSeconds.map((seconds) => `${seconds.toFixed(1)} s`).join(", ")} into the clip`,
      );
    }
    const { observations, loudness: measured } = await analyzeSubject({
      ...look,
      meterLoudness: metered,
      ...decoding,
      videoCodec: probe.videoCodec,
      timeoutMs: 30_000 + durationSeconds * 3_000,
      onProgress: (fraction) => {
        const scanShare = afterScan ? KEYFRAME_SCAN_PROGRESS_SHARE : 0;
        progress(scanShare + (1 - scanShare) * fraction);
      },
    });
    keepLoudness(metered, measured);
    const overlays = observations.motionOverlays ?? [];
    if (overlays.length > 0) {
      const percent = (fraction: number) => Math.round(fraction * 100);
      log(
        `motion left out of ${overlays.length} overlay${overlays.length === 1 ? "" : "s"} (fixed, changing in most samples): ${overlays.map((region) => `${percent(region.width)}×${percent(region.height)}% at ${percent(region.x)}%, ${percent(region.y)}%`).join("; ")}`,
      );
    }
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
    progress(KEYFRAME_SCAN_PROGRESS_SHARE);
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
    highlights:
      framed.layout === "crop"
        ? highlightsInView(framed.highlights, path, framed.targets, cropWidthFraction)
        : framed.highlights,
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

/**
 * How the 4 fps pass decodes. Where keyframes are known and sparse (at most one a second), the segment is
 * split at keyframes into parts, one per core, each decoded by an ffmpeg run of its own
 * (see decode-parts.ts): 0.85–0.99 s instead of 1.08–1.45 s for the bench's 18 s motion clip.
 */
function framesPassDecoding(
  input: RenderClipInput,
  durationSeconds: number,
): { videoDecoderThreads?: number; decodeSplitsSeconds?: number[] } {
  const videoDecoderThreads = subjectPassDecoderThreads(input, durationSeconds, "frames");
  const decodeSplitsSeconds =
    videoDecoderThreads === undefined
      ? []
      : chooseDecodeSplits({
          startSeconds: input.startSeconds,
          durationSeconds,
          keyframesSeconds: input.keyframesSeconds,
          parts: os.availableParallelism(),
        });
  return decodeSplitsSeconds.length > 0
    ? { videoDecoderThreads: 1, decodeSplitsSeconds }
    : { videoDecoderThreads };
}
