import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeSource, type SourceAnalysis } from "@/engine/analyze-source";
import { mean, sliceSeconds } from "@/engine/curve-math";
import { DEFAULT_MOMENT_OPTIONS, DEFAULT_SIGNAL_MODE, MAX_TOP_N } from "@/engine/defaults";
import { computeSecondFeatures } from "@/engine/moments/second-features";
import { SignalExtractionError } from "@/engine/signals/extract-signals";
import {
  createDefectFixtures,
  DEFECT_FIXTURE_NAMES,
  type DefectFixtures,
} from "@/engine/testing/defect-fixtures";
import { encodeTestVideo } from "@/engine/testing/encode-test-video";
import { canSynthesizeSpeech, generateSpokenVideo } from "@/engine/testing/spoken-video";
import {
  generateSyntheticVideo,
  type PlantedEvent,
  planSyntheticVideo,
  type SyntheticVideo,
} from "@/engine/testing/synthetic-video";
import { clipableSeconds, type ScoredMoment, type SignalMode, type TimeRange } from "@/engine/types";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { MediaProbeError } from "@/media/probe";
import { createLocalAnalyzer } from "./local-analyzer";

/**
 * End to end, no AWS: generated videos with planted events and a flat control go through
 * probe → one signal pass → local analysis, in both signal modes.
 */
const binaries = resolveMediaBinaries();
const BOUNDARY_TOLERANCE_SECONDS = 3;
let directory = "";
let planted: SyntheticVideo;
let control: SyntheticVideo;
let fixtures: DefectFixtures;
const results = new Map<string, SourceAnalysis>();

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), "truss-engine-e2e-"));
  const durationSeconds = 190;
  [planted, control, fixtures] = await Promise.all([
    generateSyntheticVideo({
      binaries,
      outputPath: path.join(directory, "planted.mp4"),
      plan: planSyntheticVideo({ durationSeconds }),
    }),
    generateSyntheticVideo({
      binaries,
      outputPath: path.join(directory, "flat-control.mp4"),
      plan: planSyntheticVideo({ durationSeconds, flat: true }),
    }),
    createDefectFixtures({ binaries, directory }),
  ]);
}, 120_000);

afterAll(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
});

async function analyzed(video: SyntheticVideo, mode: SignalMode): Promise<SourceAnalysis> {
  const key = `${video.path}:${mode}`;
  const cached = results.get(key);
  if (cached) return cached;
  const result = await analyzeSource({ binaries, input: video.path, mode });
  results.set(key, result);
  return result;
}

/** A clip that contains the event, both edges within 3 s of the event's. */
function findsEvent(moments: ScoredMoment[], event: PlantedEvent): boolean {
  return moments.some(
    (moment) =>
      moment.startSeconds <= event.startSeconds + BOUNDARY_TOLERANCE_SECONDS &&
      moment.endSeconds >= event.endSeconds - BOUNDARY_TOLERANCE_SECONDS &&
      Math.abs(moment.startSeconds - event.startSeconds) <= BOUNDARY_TOLERANCE_SECONDS &&
      Math.abs(moment.endSeconds - event.endSeconds) <= BOUNDARY_TOLERANCE_SECONDS,
  );
}

describe.each(["fast", "full"] as const)("local analysis, %s signal mode", (mode) => {
  it("puts the top clips on at least 80% of the planted events, edges within 3 s", async () => {
    const { analysis } = await analyzed(planted, mode);
    expect(planted.events.length).toBeGreaterThanOrEqual(4);
    const found = planted.events.filter((event) => findsEvent(analysis.moments, event));
    expect(found.length / planted.events.length).toBeGreaterThanOrEqual(0.8);
  }, 60_000);

  it("scores the flat control's best clip at least 20 points below the planted video's", async () => {
    const best = Math.max(...(await analyzed(planted, mode)).analysis.moments.map((moment) => moment.score));
    const controlBest = Math.max(
      ...(await analyzed(control, mode)).analysis.moments.map((moment) => moment.score),
    );
    expect(best - controlBest).toBeGreaterThanOrEqual(20);
    expect(controlBest).toBeLessThan(20);
  }, 60_000);

  it("gives a clip to each planted event and none to the quiet stretches between them", async () => {
    // Five clips are asked for and four events planted: the fifth would be background.
    const { moments } = (await analyzed(planted, mode)).analysis;
    expect(DEFAULT_MOMENT_OPTIONS.topN).toBeGreaterThan(planted.events.length);
    for (const moment of moments) {
      const holdsEvent = planted.events.some(
        (event) => moment.startSeconds < event.endSeconds && event.startSeconds < moment.endSeconds,
      );
      expect(holdsEvent, `${moment.startSeconds}–${moment.endSeconds} s: ${moment.reasons[0]?.text}`).toBe(
        true,
      );
    }
    // The flat control still gets its liveliest stretch, and says that little stands out.
    const controlMoments = (await analyzed(control, mode)).analysis.moments;
    expect(controlMoments).toHaveLength(1);
    expect(controlMoments[0]?.reasons[0]?.text).toMatch(/^Little stands out/);
  }, 60_000);

  it("keeps clips within the limits, apart, ranked, explained and titled", async () => {
    const { analysis, probe } = await analyzed(planted, mode);
    const { moments } = analysis;
    expect(moments.length).toBeLessThanOrEqual(DEFAULT_MOMENT_OPTIONS.topN);
    expect(moments.length).toBeGreaterThanOrEqual(Math.ceil(0.8 * planted.events.length));
    const byStart = [...moments].sort((a, b) => a.startSeconds - b.startSeconds);
    for (const [index, moment] of byStart.entries()) {
      const length = moment.endSeconds - moment.startSeconds;
      expect(length).toBeGreaterThanOrEqual(DEFAULT_MOMENT_OPTIONS.minSeconds - 1e-6);
      expect(length).toBeLessThanOrEqual(DEFAULT_MOMENT_OPTIONS.maxSeconds + 1e-6);
      expect(moment.startSeconds).toBeGreaterThanOrEqual(0);
      expect(moment.endSeconds).toBeLessThanOrEqual(probe.durationSeconds);
      const next = byStart[index + 1];
      if (next) expect(moment.endSeconds).toBeLessThanOrEqual(next.startSeconds);
    }
    expect(moments.map((moment) => moment.ordinal)).toEqual(moments.map((_, index) => index));
    const scores = moments.map((moment) => moment.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const moment of moments) {
      expect(moment.score).toBeGreaterThanOrEqual(0);
      expect(moment.score).toBeLessThanOrEqual(100);
      expect(moment.title.length).toBeGreaterThan(5);
      expect(moment.reasons.length).toBeGreaterThan(0);
      for (const reason of moment.reasons) {
        expect(reason.atSeconds).toBeGreaterThanOrEqual(moment.startSeconds - 1);
        expect(reason.atSeconds).toBeLessThanOrEqual(moment.endSeconds);
      }
    }
    expect(analysis.interestCurve).toHaveLength(190);
    expect(analysis.chapters[0]?.startSeconds).toBe(0);
    expect(analysis.chapters.at(-1)?.endSeconds).toBeCloseTo(probe.durationSeconds, 0);
  }, 60_000);
});

describe("how many clips", () => {
  it("asking for fewer clips gives the first of the same clips, as many as asked while moments stand out", async () => {
    // A fractal zoom with two loud bursts (where this was found): some stretches between them
    // move enough to stand out and some do not, and some are found only between picked clips.
    const zoom = path.join(directory, "zoom.mp4");
    await encodeTestVideo({
      binaries,
      inputArgs: [
        ...["-f", "lavfi", "-i", "mandelbrot=s=640x360:r=10"],
        ...["-f", "lavfi", "-i", "sine=f=220:r=48000"],
        ...["-filter_complex", "[1:a]volume='if(between(t,30,36)+between(t,70,75),1.0,0.03)':eval=frame[a]"],
      ],
      outputArgs: ["-map", "0:v", "-map", "[a]", "-t", "90", "-c:a", "aac", "-b:a", "64k"],
      outputPath: zoom,
    });
    const { signals, probe } = await analyzeSource({ binaries, input: zoom, mode: DEFAULT_SIGNAL_MODE });
    const analyzer = createLocalAnalyzer();
    const clipsFor = async (topN: number) =>
      (
        await analyzer.analyze({
          sourceFile: async () => zoom,
          probe,
          signals,
          options: { ...DEFAULT_MOMENT_OPTIONS, topN },
        })
      ).moments.map((moment) => `${moment.startSeconds}–${moment.endSeconds}`);
    const most = await clipsFor(MAX_TOP_N);
    expect(most.length).toBeGreaterThanOrEqual(3);
    for (let topN = 1; topN <= most.length + 1; topN += 1) {
      expect(await clipsFor(topN), `${topN} asked for`).toEqual(most.slice(0, topN));
    }
  }, 60_000);
});

describe("local analysis of defect fixtures", () => {
  const expectations: Record<(typeof DEFECT_FIXTURE_NAMES)[number], "analyses" | "fails" | "either"> = {
    "no-audio": "analyses",
    "audio-only": "fails",
    vertical: "analyses",
    rotated: "analyses",
    "variable-frame-rate": "analyses",
    "one-second": "analyses",
    "picture-ends-early": "analyses",
    "no-duration": "analyses",
    corrupt: "either",
    "not-a-video": "fails",
    truncated: "fails",
  };

  it.each(DEFECT_FIXTURE_NAMES)(
    "%s: analyses or fails with a clear reason, without hanging",
    async (name) => {
      const started = Date.now();
      const outcome = await analyzeSource({
        binaries,
        input: fixtures[name],
        mode: DEFAULT_SIGNAL_MODE,
      }).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      expect(Date.now() - started).toBeLessThan(20_000);
      const expected = expectations[name];
      if ("error" in outcome) {
        expect(expected, `${name} failed: ${String(outcome.error)}`).not.toBe("analyses");
        const isClear =
          outcome.error instanceof MediaProbeError || outcome.error instanceof SignalExtractionError;
        expect(isClear, String(outcome.error)).toBe(true);
        // A sentence for a person: no stack, no ffmpeg option soup.
        expect((outcome.error as Error).message).toMatch(/^[A-Z][^\n]{10,240}$/);
      } else {
        expect(expected, `${name} should have failed`).not.toBe("fails");
        const { moments } = outcome.result.analysis;
        expect(moments.length).toBeGreaterThanOrEqual(1);
        for (const moment of moments) {
          expect(moment.endSeconds).toBeLessThanOrEqual(clipableSeconds(outcome.result.probe) + 1e-6);
          expect(moment.endSeconds - moment.startSeconds).toBeGreaterThan(0);
        }
      }
    },
  );

  it("finds the planted events in fast mode when keyframes come every 8 s and never on a cut", async () => {
    // As NVENC and recorders set to a fixed keyframe interval write video: the fast pass sees
    // the picture every 8 s, and finds the cuts between from the packet sizes.
    const fixedInterval = path.join(directory, "fixed-keyframes.mp4");
    await encodeTestVideo({
      binaries,
      inputArgs: ["-i", planted.path],
      outputArgs: ["-c:a", "copy", "-g", "240", "-sc_threshold", "0"],
      outputPath: fixedInterval,
    });
    const { analysis, signals } = await analyzeSource({ binaries, input: fixedInterval, mode: "fast" });
    expect(signals.keyframesSeconds?.length).toBe(Math.ceil(190 / 8));
    const found = planted.events.filter((event) => findsEvent(analysis.moments, event));
    expect(found.length / planted.events.length).toBeGreaterThanOrEqual(0.8);
  }, 60_000);

  it("clips only where there is a picture when the sound runs on after it", async () => {
    const { analysis, probe } = await analyzeSource({
      binaries,
      input: fixtures["picture-ends-early"],
      mode: DEFAULT_SIGNAL_MODE,
    });
    expect(probe.durationSeconds).toBeCloseTo(12, 0);
    expect(probe.pictureEndSeconds).toBeCloseTo(4, 1);
    expect(analysis.moments).toHaveLength(1);
    expect(analysis.moments[0]?.startSeconds).toBe(0);
    expect(analysis.moments[0]?.endSeconds).toBeCloseTo(4, 0);
    // The timeline and the chapters still cover the whole file.
    expect(analysis.chapters.at(-1)?.endSeconds).toBeCloseTo(12, 0);
  });

  it("makes the whole of a one-second video its single clip", async () => {
    const { analysis } = await analyzeSource({
      binaries,
      input: fixtures["one-second"],
      mode: DEFAULT_SIGNAL_MODE,
    });
    expect(analysis.moments).toHaveLength(1);
    expect(analysis.moments[0]?.startSeconds).toBe(0);
    expect(analysis.moments[0]?.endSeconds).toBeCloseTo(1, 1);
    expect(analysis.chapters).toHaveLength(1);
  });

  it("stops when cancelled before it starts", async () => {
    const controller = new AbortController();
    controller.abort();
    const analyzer = createLocalAnalyzer();
    const { signals, probe } = await analyzed(planted, DEFAULT_SIGNAL_MODE);
    await expect(
      analyzer.analyze({
        sourceFile: async () => planted.path,
        probe,
        signals,
        options: DEFAULT_MOMENT_OPTIONS,
        signal: controller.signal,
      }),
    ).rejects.toThrow(/abort/i);
  });
});

// Debian's ffmpeg (what CI installs) speaks through libflite; the npm fallback build cannot.
describe.skipIf(!(await canSynthesizeSpeech(binaries)))("local analysis of speech", () => {
  it("hears a voice as speech, and neither room noise nor a chord pulsing at a syllable's rate", async () => {
    const video = await generateSpokenVideo({ binaries, outputPath: path.join(directory, "spoken.mp4") });
    const { analysis, signals } = await analyzeSource({
      binaries,
      input: video.path,
      mode: DEFAULT_SIGNAL_MODE,
    });
    const speech = computeSecondFeatures(signals).speech;
    const speechOver = (range: TimeRange) => mean(sliceSeconds(speech, range.startSeconds, range.endSeconds));
    expect(speechOver(video.speech)).toBeGreaterThan(0.5);
    expect(speechOver(video.pulsingChord)).toBeLessThan(0.2);
    expect(speechOver({ startSeconds: 0, endSeconds: video.speech.startSeconds - 1 })).toBe(0);

    // The talk is the best moment, scored and explained as speech.
    const [best] = [...analysis.moments].sort((a, b) => b.score - a.score);
    expect(Math.abs((best?.startSeconds ?? -99) - video.speech.startSeconds)).toBeLessThanOrEqual(
      BOUNDARY_TOLERANCE_SECONDS,
    );
    expect(best?.endSeconds).toBeGreaterThanOrEqual(video.speech.endSeconds - BOUNDARY_TOLERANCE_SECONDS);
    expect(best?.subscores.speech).toBeGreaterThanOrEqual(80);
    expect(best?.reasons.map((reason) => reason.text).join("\n")).toMatch(/speech/i);
    // A clip of the chord, if there is one, is not scored as talk.
    const chordClips = analysis.moments.filter(
      (moment) =>
        moment.startSeconds < video.pulsingChord.endSeconds &&
        moment.endSeconds > video.pulsingChord.startSeconds,
    );
    for (const moment of chordClips) expect(moment.subscores.speech).toBeLessThan(20);
  }, 60_000);
});
