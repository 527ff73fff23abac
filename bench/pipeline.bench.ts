/**
 * Pipeline benchmark: `npm run bench:pipeline` (or `npx tsx bench/pipeline.bench.ts`).
 *
 *   --long          a 60-minute source instead of 10 minutes
 *   --minutes N     any length (multiples of 10 are made by stream-copying the 10-minute video)
 *   --clips N       render the top N clips (default: the best clip of each planted kind)
 *   --repeat N      render each clip N times, each between two bare runs (default 3)
 *   --analysis-repeat N  run each mode's analysis N times, its figure the median (default 3;
 *                   1 for sources longer than 10 minutes)
 *   --no-render     skip the render comparison
 *   --modes a,b     signal modes to measure (default fast,full; the default-mode verdict needs both)
 *   --cache <dir>   keep the generated source (and its plan) in <dir> and reuse it next time:
 *                   generating 10 minutes of 1080p takes a few minutes on 2 cores
 *
 * Generates a 1080p30 H.264/AAC video with planted events (see src/engine/testing/synthetic-
 * video.ts) in a temporary directory and measures, in the same run:
 *   1. a plain full decode (`ffmpeg -i IN -f null -`), the floor for any full analysis;
 *   2. for each signal mode: probe + signal pass + local analysis (the median of N runs, with
 *      their range), its ratio to the decode, and its accuracy (planted events found by a top
 *      clip with both edges within 3 s);
 *   3. per clip: `renderClip` vs a bare ffmpeg crop+scale+encode of the same segment: each
 *      render against the mean of the bare runs just before and after it, the median of those
 *      ratios and their range;
 *   4. peak RSS of this process and of every ffmpeg child (sampled from /proc).
 * and says which signal mode the figures support as the default.
 */
import { execFileSync } from "node:child_process";
import { access, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLocalAnalyzer } from "@/engine/analyzers/local-analyzer";
import { median } from "@/engine/curve-math";
import { DEFAULT_MOMENT_OPTIONS, DEFAULT_SIGNAL_MODE, MAX_TOP_N } from "@/engine/defaults";
import { loadFaceDetector } from "@/engine/faces/face-detector";
import { getRenderCapabilities } from "@/engine/render/render-capabilities";
import { renderClip, renderHintsFrom } from "@/engine/render/render-clip";
import { extractSignals } from "@/engine/signals/extract-signals";
import {
  generateSyntheticVideo,
  type PlantedEvent,
  planSyntheticVideo,
  type SyntheticVideo,
} from "@/engine/testing/synthetic-video";
import type { ScoredMoment, SignalCurve, SignalMode } from "@/engine/types";
import { resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { runMedia } from "@/media/run-ffmpeg";
import { buildBareVerticalCropArgs } from "@/media/vertical-crop-args";
import { treeCpuSeconds } from "./process-cpu";
import { PeakMemory } from "./process-memory";

const BOUNDARY_TOLERANCE_SECONDS = 3;
const TARGET_ANALYSIS_RATIO = 0.25;
const BASE_MINUTES = 10;

const args = process.argv.slice(2);
const minutes = args.includes("--long") ? 60 : Number(flagValue("--minutes") ?? BASE_MINUTES);
const clipsFlag = flagValue("--clips");
/**
 * Renders per clip, each between two bare runs; the clip's figure is the median of their paired ratios.
 * Three by default: a single render's ratio moved by up to 0.09 on a shared 2-core machine.
 */
const renderRepeats = Math.max(1, Number(flagValue("--repeat") ?? 3));
/**
 * Analysis runs per mode; its figure is their median. One run was 3.9 s in one hour and 5.2 s
 * in the next on this machine, against decodes of 26.7 and 24.5 s.
 */
const analysisRepeats = Math.max(
  1,
  // Longer sources run once: the full mode alone takes ~9 minutes an hour of video.
  Number(flagValue("--analysis-repeat") ?? (minutes > BASE_MINUTES ? 1 : 3)),
);
/** null: one clip of each planted kind. */
const clipsToRender = args.includes("--no-render") ? 0 : clipsFlag === undefined ? null : Number(clipsFlag);
const modes = parseModes(flagValue("--modes") ?? "fast,full");
const cacheFlag = flagValue("--cache");
const cacheDirectory = cacheFlag ? path.resolve(cacheFlag) : undefined;
const binaries = resolveMediaBinaries();

function parseModes(list: string): SignalMode[] {
  const known: SignalMode[] = ["fast", "full"];
  const chosen = list.split(",").map((mode) => mode.trim());
  const unknown = chosen.filter((mode) => !known.includes(mode as SignalMode));
  if (unknown.length > 0 || !chosen.includes(DEFAULT_SIGNAL_MODE)) {
    throw new Error(
      `--modes: expected a list of ${known.join(", ")} including the default (${DEFAULT_SIGNAL_MODE}), got "${list}"`,
    );
  }
  return chosen as SignalMode[];
}

function flagValue(flag: string): string | undefined {
  const index = args.indexOf(flag);
  return index >= 0 ? args[index + 1] : undefined;
}

const selfPeakMb = () => process.resourceUsage().maxRSS / 1024;

/** Wall seconds, and CPU seconds of this process and the children it ran (null off Linux). */
type Timed<T> = { value: T; seconds: number; cpuSeconds: number | null };
type ScoredMomentsWithSignals = { moments: ScoredMoment[]; signals: SignalCurve };

async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const started = performance.now();
  const cpuBefore = treeCpuSeconds();
  const value = await work();
  const cpuAfter = treeCpuSeconds();
  return {
    value,
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
}

function progress(message: string) {
  process.stderr.write(`[bench] ${message}\n`);
}

/**
 * Each render against the mean of the bare runs on either side of it (`bare` holds one more run
 * than `render`): the machine's speed drifts by several percent between runs a minute apart, so
 * the ratio of two medians taken at different moments would carry that drift.
 */
function pairedRatios(render: number[], bare: number[]): { ratio: number; ratioRange: [number, number] } {
  const ratios = render.map((value, index) => value / (((bare[index] ?? 0) + (bare[index + 1] ?? 0)) / 2));
  return { ratio: median(ratios) ?? Number.NaN, ratioRange: [Math.min(...ratios), Math.max(...ratios)] };
}

function allMeasured(values: (number | null)[]): values is number[] {
  return values.every((value) => value !== null);
}

const formatRange = (range: [number, number]) => range.map((ratio) => ratio.toFixed(2)).join("–");

/** Planted events matched by a clip containing them whose edges are within 3 s of theirs. */
function matches(event: PlantedEvent, moment: ScoredMoment): boolean {
  return (
    Math.abs(moment.startSeconds - event.startSeconds) <= BOUNDARY_TOLERANCE_SECONDS &&
    Math.abs(moment.endSeconds - event.endSeconds) <= BOUNDARY_TOLERANCE_SECONDS
  );
}

function matchEvents(events: PlantedEvent[], moments: ScoredMoment[]) {
  return events.filter((event) => moments.some((moment) => matches(event, moment))).length;
}

/**
 * The clips to render: the top `count`, or by default the best-ranked clip of each planted kind,
 * so the comparison covers a still picture (loud bursts), hard cuts and motion alike.
 */
function pickClipsToRender(events: PlantedEvent[], moments: ScoredMoment[], count: number | null) {
  const kindOf = (moment: ScoredMoment) =>
    events.find((event) => matches(event, moment))?.kind ?? "unplanted";
  const labelled = moments.map((moment) => ({ moment, kind: kindOf(moment) }));
  if (count !== null) return labelled.slice(0, count);
  const kinds = [...new Set(events.map((event) => event.kind))];
  return kinds.flatMap((kind) => labelled.find((clip) => clip.kind === kind) ?? []);
}

/** A source of `sourceMinutes`, from the cache directory when it holds one, else generated (and cached if asked). */
async function loadOrMakeSource(directory: string, sourceMinutes: number): Promise<SyntheticVideo> {
  const cache = cacheDirectory;
  const planPath = cache ? path.join(cache, `planted-${sourceMinutes}min.json`) : undefined;
  if (planPath) {
    try {
      const cached = JSON.parse(await readFile(planPath, "utf8")) as SyntheticVideo;
      await access(cached.path);
      progress(`reusing ${cached.path}`);
      return cached;
    } catch {
      // Not cached yet.
    }
  }
  const target = cache ?? directory;
  await mkdir(target, { recursive: true });
  const source =
    sourceMinutes <= BASE_MINUTES
      ? await generateSource(target, sourceMinutes)
      : await repeatSource(
          await loadOrMakeSource(directory, BASE_MINUTES),
          target,
          Math.round(sourceMinutes / BASE_MINUTES),
        );
  if (planPath) await writeFile(planPath, JSON.stringify(source));
  return source;
}

async function generateSource(directory: string, sourceMinutes: number): Promise<SyntheticVideo> {
  const seconds = sourceMinutes * 60;
  const plan = planSyntheticVideo({ durationSeconds: seconds, gapSeconds: 40 });
  progress(`generating a ${sourceMinutes}-minute 1080p30 video with ${plan.events.length} planted events…`);
  const generated = await timed(() =>
    generateSyntheticVideo({
      binaries,
      outputPath: path.join(directory, `planted-${seconds}s-1080p30.mp4`),
      plan,
      width: 1920,
      height: 1080,
      fps: 30,
      // Realistic decoding cost needs CABAC and B-frames (ultrafast has neither).
      preset: "superfast",
      timeoutMs: 3 * 60 * 60 * 1000,
    }),
  );
  progress(`generated in ${generated.seconds.toFixed(1)} s`);
  return generated.value;
}

/** Longer sources: the 10-minute video stream-copied back to back, its events repeated. */
async function repeatSource(
  base: SyntheticVideo,
  directory: string,
  copies: number,
): Promise<SyntheticVideo> {
  const listPath = path.join(directory, "copies.txt");
  await writeFile(
    listPath,
    Array.from({ length: copies }, () => `file '${path.resolve(base.path)}'`).join("\n"),
  );
  const durationSeconds = copies * base.durationSeconds;
  const longPath = path.join(directory, `planted-${durationSeconds}s-1080p30.mp4`);
  progress(`joining ${copies} copies into a ${durationSeconds / 60}-minute source…`);
  await runMedia({
    binaryPath: binaries.ffmpegPath,
    args: ["-hide_banner", "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", listPath].concat([
      "-c",
      "copy",
      "-movflags",
      "+faststart",
      longPath,
    ]),
    timeoutMs: 30 * 60 * 1000,
  });
  await rm(listPath);
  const shift =
    (offset: number) =>
    <T extends { startSeconds: number; endSeconds: number }>(range: T): T => ({
      ...range,
      startSeconds: range.startSeconds + offset,
      endSeconds: range.endSeconds + offset,
    });
  const repeat = <T extends { startSeconds: number; endSeconds: number }>(ranges: T[]) =>
    Array.from({ length: copies }, (_, copy) => ranges.map(shift(copy * base.durationSeconds))).flat();
  return { path: longPath, durationSeconds, events: repeat(base.events), silences: repeat(base.silences) };
}

async function main() {
  const directory = await mkdtemp(path.join(tmpdir(), "truss-bench-pipeline-"));
  const memory = new PeakMemory();
  memory.start();
  try {
    const cpu = execFileSync("nproc", { encoding: "utf8" }).trim();
    progress(`ffmpeg ${binaries.majorVersion} (${binaries.source}), ${cpu} cores, node ${process.version}`);
    const source = await loadOrMakeSource(directory, minutes);
    const probe = await probeMedia({ binaries, input: source.path });
    const sizeMb = (probe.sizeBytes ?? 0) / 1024 / 1024;
    progress(
      `source: ${(source.durationSeconds / 60).toFixed(0)} min, ${probe.width}×${probe.height} ${probe.fps} fps, ` +
        `${sizeMb.toFixed(0)} MB (${((probe.bitrateBitsPerSecond ?? 0) / 1e6 || 0).toFixed(1)} Mb/s), ${source.events.length} planted events`,
    );

    memory.reset();
    progress("plain full decode…");
    const decode = await timed(() =>
      runMedia({
        binaryPath: binaries.ffmpegPath,
        args: ["-hide_banner", "-nostats", "-v", "error", "-i", source.path, "-f", "null", "-"],
        timeoutMs: 4 * 60 * 60 * 1000,
      }),
    );
    const decodeChildMb = memory.childMb;

    const topN = Math.min(MAX_TOP_N, source.events.length);
    type ModeResult = {
      seconds: number;
      ratio: number;
      ratioRange: [number, number];
      accuracy: number;
      matched: number;
      childMb: number;
      treeMb: number;
      moments: ScoredMoment[];
      signals: SignalCurve;
    };
    const results: Partial<Record<SignalMode, ModeResult>> = {};
    for (const mode of modes) {
      memory.reset();
      progress(`analysis, ${mode} mode, ${analysisRepeats}×…`);
      const runs: Timed<ScoredMomentsWithSignals>[] = [];
      for (let run = 0; run < analysisRepeats; run += 1) {
        runs.push(
          await timed(async () => {
            const probed = await probeMedia({ binaries, input: source.path });
            const signals = await extractSignals({ binaries, input: source.path, probe: probed, mode });
            const result = await createLocalAnalyzer().analyze({
              sourceFile: async () => source.path,
              probe: probed,
              signals,
              options: { ...DEFAULT_MOMENT_OPTIONS, topN },
            });
            return { moments: result.moments, signals };
          }),
        );
      }
      // The analysis is deterministic: every run finds the same moments.
      const analysis = runs[0]!;
      const seconds = median(runs.map((run) => run.seconds)) ?? Number.NaN;
      const ratios = runs.map((run) => run.seconds / decode.seconds);
      const matched = matchEvents(source.events, analysis.value.moments);
      results[mode] = {
        seconds,
        ratio: seconds / decode.seconds,
        ratioRange: [Math.min(...ratios), Math.max(...ratios)],
        accuracy: matched / Math.min(source.events.length, topN),
        matched,
        childMb: memory.childMb,
        treeMb: memory.treeMb,
        moments: analysis.value.moments,
        signals: analysis.value.signals,
      };
    }

    const defaultResult = results[DEFAULT_SIGNAL_MODE];
    if (!defaultResult) throw new Error(`The default mode ${DEFAULT_SIGNAL_MODE} was not measured`);
    // The machine's speed drifts over minutes (shared cores), so every render runs between two
    // bare commands of the same segment and is compared with their mean.
    const chosen =
      clipsToRender === 0 ? [] : pickClipsToRender(source.events, defaultResult.moments, clipsToRender);
    const bare = (moment: ScoredMoment, clipName: string) =>
      timed(() =>
        runMedia({
          binaryPath: binaries.ffmpegPath,
          // The same bare command the render's own tests compare against (same preset and CRF).
          args: buildBareVerticalCropArgs({
            input: source.path,
            startSeconds: moment.startSeconds,
            durationSeconds: moment.endSeconds - moment.startSeconds,
            outputPath: path.join(directory, `${clipName}.bare.mp4`),
          }),
          timeoutMs: 30 * 60 * 1000,
        }),
      );
    const renders: {
      clip: string;
      renderSeconds: number;
      bareSeconds: number;
      /** The median of the renders' ratios to the bare runs beside them, and their spread. */
      ratio: number;
      ratioRange: [number, number];
      /** The same for CPU seconds, which a busy host barely moves; null off Linux. */
      cpu: { ratio: number; ratioRange: [number, number] } | null;
    }[] = [];
    // A worker loads the face detector and asks ffmpeg for its filters and encoders once per
    // process, not once per clip: the first render would otherwise carry both.
    if (chosen.length > 0)
      await Promise.all([loadFaceDetector(), getRenderCapabilities(binaries.ffmpegPath)]);
    memory.reset();
    for (const { moment, kind } of chosen) {
      const clipName = `clip-${moment.ordinal + 1}`;
      progress(
        `render ${clipName} (${moment.startSeconds}–${moment.endSeconds} s), ${renderRepeats}× between bare commands…`,
      );
      const renderClipOnce = () =>
        timed(() =>
          renderClip(
            {
              sourcePath: source.path,
              probe,
              startSeconds: moment.startSeconds,
              endSeconds: moment.endSeconds,
              ...renderHintsFrom(defaultResult.signals),
              outputDir: directory,
              baseName: clipName,
            },
            { binaries, log: () => undefined },
          ),
        );
      // bare, render, bare, render, …, bare: each render has a bare run on either side.
      const bareRuns = [await bare(moment, clipName)];
      const renderRuns: Timed<Awaited<ReturnType<typeof renderClip>>>[] = [];
      for (let repeat = 0; repeat < renderRepeats; repeat += 1) {
        renderRuns.push(await renderClipOnce());
        bareRuns.push(await bare(moment, clipName));
      }
      const rendered = renderRuns.at(-1)?.value;
      const renderSeconds = renderRuns.map((run) => run.seconds);
      const bareSeconds = bareRuns.map((run) => run.seconds);
      const renderCpu = renderRuns.map((run) => run.cpuSeconds);
      const bareCpu = bareRuns.map((run) => run.cpuSeconds);
      renders.push({
        clip: `${clipName} (${kind}, ${(moment.endSeconds - moment.startSeconds).toFixed(1)} s, ${rendered?.layout}, subject from ${rendered?.subjectSampling ?? "-"})`,
        renderSeconds: median(renderSeconds) ?? Number.NaN,
        bareSeconds: median(bareSeconds) ?? Number.NaN,
        ...pairedRatios(renderSeconds, bareSeconds),
        cpu: allMeasured(renderCpu) && allMeasured(bareCpu) ? pairedRatios(renderCpu, bareCpu) : null,
      });
    }
    const renderChildMb = memory.childMb;
    const renderTreeMb = memory.treeMb;
    memory.stop();

    const line = (label: string, value: string) => console.log(`${label.padEnd(44)} ${value}`);
    console.log(
      `\nPipeline benchmark — ${(source.durationSeconds / 60).toFixed(0)}-minute 1080p30 source, ${source.events.length} planted events, top ${topN} clips`,
    );
    line(
      "plain full decode (ffmpeg -i IN -f null -)",
      `${decode.seconds.toFixed(1)} s (ffmpeg peak RSS ${decodeChildMb.toFixed(0)} MB)`,
    );
    const measured = modes.map((mode) => ({ mode, result: results[mode] as ModeResult }));
    for (const { mode, result } of measured) {
      line(
        `analysis, ${mode} mode`,
        `${result.seconds.toFixed(1)} s = ${result.ratio.toFixed(3)}× decode (runs ${result.ratioRange.map((ratio) => ratio.toFixed(3)).join("–")}×); accuracy ${result.matched}/${Math.min(source.events.length, topN)} ` +
          `(${(100 * result.accuracy).toFixed(0)}%); ffmpeg peak RSS ${result.childMb.toFixed(0)} MB; worker peak RSS ${result.treeMb.toFixed(0)} MB`,
      );
    }
    for (const render of renders) {
      line(
        `render ${render.clip}`,
        `${render.renderSeconds.toFixed(1)} s vs bare crop+scale+encode ${render.bareSeconds.toFixed(1)} s = ${render.ratio.toFixed(2)}× ` +
          `(runs ${formatRange(render.ratioRange)}×)` +
          (render.cpu
            ? `; CPU time ${render.cpu.ratio.toFixed(2)}× (runs ${formatRange(render.cpu.ratioRange)}×)`
            : ""),
      );
    }
    if (renders.length > 0) {
      const total = (key: "renderSeconds" | "bareSeconds") =>
        renders.reduce((sum, render) => sum + render[key], 0);
      line(
        `render / bare, all ${renders.length} clips`,
        `${total("renderSeconds").toFixed(1)} s / ${total("bareSeconds").toFixed(1)} s = ${(total("renderSeconds") / total("bareSeconds")).toFixed(2)}× ` +
          `(ffmpeg peak RSS ${renderChildMb.toFixed(0)} MB; worker peak RSS ${renderTreeMb.toFixed(0)} MB)`,
      );
    }
    line("peak RSS, this process (getrusage)", `${selfPeakMb().toFixed(0)} MB`);
    line(
      "peak RSS, largest ffmpeg child (/proc VmHWM)",
      `${Math.max(decodeChildMb, renderChildMb, ...measured.map(({ result }) => result.childMb)).toFixed(0)} MB`,
    );
    // The worker: this process and the ffmpeg children it runs at the same time, summed.
    line(
      "worker peak RSS (analysis and renders)",
      `${Math.max(renderTreeMb, ...measured.map(({ result }) => result.treeMb)).toFixed(0)} MB`,
    );

    const { fast, full } = results;
    if (!fast || !full) {
      line("default signal mode", `not judged: --modes ${modes.join(",")} (needs fast and full)`);
      return;
    }
    const fastHolds = fast.ratio <= TARGET_ANALYSIS_RATIO && fast.accuracy >= Math.min(0.8, full.accuracy);
    const supported: SignalMode = fastHolds ? "fast" : "full";
    line(
      "default signal mode supported by these figures",
      `${supported} (fast: ${fast.ratio.toFixed(3)}× ≤ ${TARGET_ANALYSIS_RATIO}× and accuracy ${(100 * fast.accuracy).toFixed(0)}% vs full ${(100 * full.accuracy).toFixed(0)}%)` +
        `; DEFAULT_SIGNAL_MODE is ${DEFAULT_SIGNAL_MODE}${supported === DEFAULT_SIGNAL_MODE ? "" : " — CHANGE IT"}`,
    );
    if (supported !== DEFAULT_SIGNAL_MODE) process.exitCode = 1;
  } finally {
    memory.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
