import { createWriteStream } from "node:fs";
import { access, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { analyzeSource } from "@/engine/analyze-source";
import { parseSubtitles } from "@/engine/captions/parse-subtitles";
import { toYouTubeChapterText } from "@/engine/chapters/youtube-chapter-text";
import { DEFAULT_SIGNAL_MODE, MAX_TOP_N, resolveMomentOptions } from "@/engine/defaults";
import { prepareRenderer, renderClip, renderHintsFrom } from "@/engine/render/render-clip";
import {
  type Chapter,
  isLayoutChoice,
  LAYOUT_CHOICES,
  type LayoutChoice,
  type Reason,
  type SignalMode,
  type Subscores,
  type TranscriptSegment,
} from "@/engine/types";
import { type MediaBinaries, resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { ensureSeekableSource, needsSeekableCopy } from "@/media/seekable-copy";

export const CLIP_USAGE = `Usage: npx truss clip <file-or-url> --out <dir> [options]

Finds the best moments of a video, scores and explains them, and renders each as a
1080×1920 clip with a thumbnail and a preview. Writes <dir>/report.json.

Options:
  --out <dir>            where clips and report.json go (required)
  --top <N>              how many clips (default 5, at most ${MAX_TOP_N})
  --min-seconds <S>      shortest clip (default 15)
  --max-seconds <S>      longest clip (default 60)
  --mode fast|full       signal pass: keyframes only (fast) or every frame (full); default ${DEFAULT_SIGNAL_MODE}
  --captions <file>      an SRT or VTT transcript to burn in as captions
  --layout <L>           auto (default: decided per clip), crop, fit or facecam
  --no-render            analyse and write report.json only
  -h, --help             this text`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export type ClipCommandOptions = {
  input: string;
  outDir: string;
  topN: number;
  minSeconds: number;
  maxSeconds: number;
  mode: SignalMode;
  captionsPath: string | null;
  layoutChoice: LayoutChoice;
  render: boolean;
};

/** Pure: `clip` command-line arguments → options, or a UsageError saying what is wrong. */
export function parseClipArgs(argv: readonly string[]): ClipCommandOptions {
  const positional: string[] = [];
  const values = new Map<string, string>();
  let render = true;
  const valueFlags = ["--out", "--top", "--min-seconds", "--max-seconds", "--mode", "--captions", "--layout"];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (arg === "--no-render") render = false;
    else if (arg.startsWith("--")) {
      const [flag = "", inline] = arg.split(/=(.*)/s, 2);
      if (!valueFlags.includes(flag)) throw new UsageError(`Unknown option ${flag}`);
      let value = inline;
      if (value === undefined) {
        index += 1;
        value = argv[index];
      }
      if (value === undefined || value.startsWith("--")) throw new UsageError(`${flag} needs a value`);
      values.set(flag, value);
    } else positional.push(arg);
  }
  if (positional.length !== 1) throw new UsageError("Give exactly one video file or URL");
  const outDir = values.get("--out");
  if (!outDir) throw new UsageError("--out <dir> is required");
  const mode = values.get("--mode") ?? DEFAULT_SIGNAL_MODE;
  if (mode !== "fast" && mode !== "full") throw new UsageError("--mode must be fast or full");
  const layoutChoice = values.get("--layout") ?? "auto";
  if (!isLayoutChoice(layoutChoice))
    throw new UsageError(`--layout must be one of ${LAYOUT_CHOICES.join(", ")}`);
  const number = (flag: string) => {
    const raw = values.get(flag);
    if (raw === undefined) return undefined;
    const parsed = Number(raw);
    if (!Number.isFinite(parsed)) throw new UsageError(`${flag} must be a number`);
    return parsed;
  };
  const topN = number("--top");
  if (topN !== undefined && !Number.isInteger(topN)) throw new UsageError("--top must be a whole number");
  let resolved: ReturnType<typeof resolveMomentOptions>;
  try {
    resolved = resolveMomentOptions({
      topN,
      minSeconds: number("--min-seconds"),
      maxSeconds: number("--max-seconds"),
    });
  } catch (error) {
    throw new UsageError(
      (error as Error).message
        .replace("topN", "--top")
        .replace(/minSeconds/g, "--min-seconds")
        .replace("maxSeconds", "--max-seconds"),
    );
  }
  const input = positional[0] ?? "";
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input) && !/^https?:\/\//i.test(input)) {
    throw new UsageError("Only http(s) URLs can be downloaded");
  }
  return {
    input,
    outDir,
    topN: resolved.topN,
    minSeconds: resolved.minSeconds,
    maxSeconds: resolved.maxSeconds,
    mode,
    captionsPath: values.get("--captions") ?? null,
    layoutChoice,
    render,
  };
}

export type ClipReport = {
  source: {
    input: string;
    durationSeconds: number;
    width: number;
    height: number;
    fps: number;
    rotationDegrees: number;
    isVariableFrameRate: boolean;
    hasAudio: boolean;
    videoCodec: string | null;
    audioCodec: string | null;
    formatName: string;
    sizeBytes: number | null;
  };
  analyzer: string;
  signalMode: SignalMode;
  clips: {
    rank: number;
    startSeconds: number;
    endSeconds: number;
    score: number;
    subscores: Subscores;
    reasons: Reason[];
    title: string;
    /** Paths relative to report.json; null when rendering was skipped or failed. */
    file: string | null;
    thumbnail: string | null;
    preview: string | null;
    layout: string | null;
    renderError?: string;
  }[];
  chapters: Chapter[];
  youtubeChapters: string;
  /** The interest curve, one value per second, for a timeline plot. */
  interestCurve: number[];
  timings: {
    downloadSeconds: number | null;
    probeSeconds: number;
    signalsSeconds: number;
    analysisSeconds: number;
    renderSeconds: number[];
    totalSeconds: number;
  };
};

export type ClipCommandDependencies = {
  binaries?: MediaBinaries;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
  signal?: AbortSignal;
  /** Download timeout for URL inputs. */
  downloadTimeoutMs?: number;
};

/** Runs `truss clip`: download (for a URL) → probe → signals → local analysis → render each clip → report.json. */
export async function runClipCommand(
  options: ClipCommandOptions,
  dependencies: ClipCommandDependencies = {},
): Promise<ClipReport> {
  const log = dependencies.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { signal } = dependencies;
  const binaries = dependencies.binaries ?? resolveMediaBinaries();
  // Loads during the download and the analysis instead of holding up the first clip.
  if (options.render) void prepareRenderer(binaries.ffmpegPath);
  const startedAt = performance.now();
  const elapsed = (since: number) => (performance.now() - since) / 1000;
  /** Holds a downloaded source and a seekable copy; removed at the end whatever happens. */
  let workDirectory: string | null = null;
  try {
    let sourcePath = options.input;
    let downloadSeconds: number | null = null;
    if (/^https?:\/\//i.test(options.input)) {
      workDirectory = await mkdtemp(path.join(tmpdir(), "truss-cli-"));
      const started = performance.now();
      sourcePath = await downloadToFile({
        url: options.input,
        directory: workDirectory,
        timeoutMs: dependencies.downloadTimeoutMs ?? 30 * 60 * 1000,
        signal,
        log,
      });
      downloadSeconds = elapsed(started);
    } else {
      await access(sourcePath).catch(() => {
        throw new Error(`No such file: ${sourcePath}`);
      });
    }

    // A stream capture (MPEG-TS) cannot be cut exactly: clips are made from a copy that can.
    const probeStarted = performance.now();
    const sourceProbe = await probeMedia({ binaries, input: sourcePath, signal });
    const sourceProbeSeconds = elapsed(probeStarted);
    const copied = needsSeekableCopy(sourceProbe.formatName);
    if (copied) {
      log(`Copying the ${sourceProbe.formatName} stream into Matroska, which can be cut exactly…`);
      workDirectory ??= await mkdtemp(path.join(tmpdir(), "truss-cli-"));
      sourcePath = await ensureSeekableSource({
        binaries,
        sourcePath,
        formatName: sourceProbe.formatName,
        durationSeconds: sourceProbe.durationSeconds,
        directory: workDirectory,
        signal,
      });
    }

    const transcript = options.captionsPath ? await readTranscript(options.captionsPath) : undefined;
    const momentOptions = resolveMomentOptions({
      topN: options.topN,
      minSeconds: options.minSeconds,
      maxSeconds: options.maxSeconds,
    });
    let lastPercent = -10;
    const { probe, signals, analysis, timings } = await analyzeSource({
      binaries,
      input: sourcePath,
      // The copy is another file (another container, its clock from zero): it is probed anew.
      probe: copied ? undefined : sourceProbe,
      mode: options.mode,
      options: momentOptions,
      transcript,
      signal,
      onStage: (stage, fraction) => {
        if (stage === "signals") {
          const percent = Math.floor(fraction * 100);
          if (percent > lastPercent && (percent >= lastPercent + 10 || percent === 100)) {
            lastPercent = percent;
            log(`Measuring sound and motion (${options.mode}): ${percent}%`);
          }
        } else if (fraction === 0)
          log(stage === "probe" ? "Reading the video…" : "Finding the best moments…");
      },
    });
    log(
      `${probe.width}×${probe.height}, ${formatDuration(probe.durationSeconds)}: ${analysis.moments.length} clip(s), ${analysis.chapters.length} chapter(s)`,
    );

    await mkdir(options.outDir, { recursive: true });
    const renderSeconds: number[] = [];
    const clips: ClipReport["clips"] = [];
    for (const moment of analysis.moments) {
      const rank = moment.ordinal + 1;
      const baseName = `clip-${String(rank).padStart(2, "0")}`;
      const clip: ClipReport["clips"][number] = {
        rank,
        startSeconds: moment.startSeconds,
        endSeconds: moment.endSeconds,
        score: moment.score,
        subscores: moment.subscores,
        reasons: moment.reasons,
        title: moment.title,
        file: null,
        thumbnail: null,
        preview: null,
        layout: null,
      };
      clips.push(clip);
      if (!options.render) continue;
      log(`Rendering clip ${rank}/${analysis.moments.length} (score ${moment.score}): ${moment.title}`);
      const started = performance.now();
      try {
        const rendered = await renderClip(
          {
            sourcePath,
            probe,
            startSeconds: moment.startSeconds,
            endSeconds: moment.endSeconds,
            ...renderHintsFrom(signals),
            transcript,
            layoutChoice: options.layoutChoice,
            outputDir: options.outDir,
            baseName,
            signal,
          },
          { binaries, log: (message) => log(`  ${message}`) },
        );
        clip.file = path.relative(options.outDir, rendered.videoPath);
        clip.thumbnail = path.relative(options.outDir, rendered.thumbnailPath);
        clip.preview = path.relative(options.outDir, rendered.previewPath);
        clip.layout = rendered.layout;
      } catch (error) {
        if (signal?.aborted) throw error;
        clip.renderError = (error as Error).message;
        log(`  clip ${rank} could not be rendered: ${clip.renderError}`);
      }
      renderSeconds.push(Math.round(elapsed(started) * 100) / 100);
    }

    const round = (seconds: number) => Math.round(seconds * 100) / 100;
    const report: ClipReport = {
      source: {
        input: options.input,
        durationSeconds: probe.durationSeconds,
        width: probe.width,
        height: probe.height,
        fps: probe.fps,
        rotationDegrees: probe.rotationDegrees,
        isVariableFrameRate: probe.isVariableFrameRate,
        hasAudio: probe.hasAudio,
        videoCodec: probe.videoCodec,
        audioCodec: probe.audioCodec,
        // The file as given, not the seekable copy clips were cut from.
        formatName: sourceProbe.formatName,
        sizeBytes: sourceProbe.sizeBytes,
      },
      analyzer: analysis.analyzer,
      signalMode: options.mode,
      clips,
      chapters: analysis.chapters,
      youtubeChapters: toYouTubeChapterText(analysis.chapters),
      interestCurve: analysis.interestCurve,
      timings: {
        downloadSeconds: downloadSeconds === null ? null : round(downloadSeconds),
        probeSeconds: round(sourceProbeSeconds + timings.probeSeconds),
        signalsSeconds: round(timings.signalsSeconds),
        analysisSeconds: round(timings.analysisSeconds),
        renderSeconds,
        totalSeconds: round(elapsed(startedAt)),
      },
    };
    await writeFile(path.join(options.outDir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    log(`Wrote ${path.join(options.outDir, "report.json")} in ${report.timings.totalSeconds} s`);
    return report;
  } finally {
    if (workDirectory) await rm(workDirectory, { recursive: true, force: true });
  }
}

/** Streams an http(s) URL to a file in `directory` (never held in memory). */
export async function downloadToFile({
  url,
  directory,
  timeoutMs,
  signal,
  log,
}: {
  url: string;
  directory: string;
  timeoutMs: number;
  signal?: AbortSignal;
  log: (line: string) => void;
}): Promise<string> {
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new Error("Only http(s) URLs can be downloaded");
  const name = path.basename(decodeURIComponent(parsed.pathname)).replace(/[^\w.-]+/g, "_") || "source";
  const target = path.join(directory, name.length > 100 ? name.slice(-100) : name);
  log(`Downloading ${parsed.origin}${parsed.pathname}…`);
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, { signal: combined, redirect: "follow" });
  } catch (error) {
    if (timeout.aborted)
      throw new Error(`Downloading the video took longer than ${Math.round(timeoutMs / 1000)} s`);
    throw new Error(`The video could not be downloaded: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok || !response.body) {
    throw new Error(
      `The video could not be downloaded: HTTP ${response.status} ${response.statusText}`.trim(),
    );
  }
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      createWriteStream(target),
    );
  } catch (error) {
    if (timeout.aborted)
      throw new Error(`Downloading the video took longer than ${Math.round(timeoutMs / 1000)} s`);
    throw new Error(`The download was interrupted: ${(error as Error).message}`, { cause: error });
  }
  const { size } = await stat(target);
  log(`Downloaded ${(size / 1024 / 1024).toFixed(1)} MB`);
  return target;
}

async function readTranscript(filePath: string): Promise<TranscriptSegment[]> {
  const text = await readFile(filePath, "utf8").catch(() => {
    throw new Error(`Cannot read the captions file ${filePath}`);
  });
  return parseSubtitles(text);
}

function formatDuration(seconds: number): string {
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.round(seconds * 10) / 10} s`;
}
