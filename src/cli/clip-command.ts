import { access, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { analyzeSource } from "@/engine/analyze-source";
import { parseSubtitles } from "@/engine/captions/parse-subtitles";
import { toYouTubeChapterText } from "@/engine/chapters/youtube-chapter-text";
import {
  DEFAULT_MOMENT_OPTIONS,
  DEFAULT_SIGNAL_MODE,
  describeTooShortToClip,
  LONGEST_CLIP_SECONDS,
  MAX_TOP_N,
  resolveMomentOptions,
  SHORTEST_CLIP_SECONDS,
} from "@/engine/defaults";
import { RENDERED_LAYOUT_WORDS } from "@/engine/render/layout-words";
import { prepareRenderer, renderClip, renderHintsFrom } from "@/engine/render/render-clip";
import { DEFAULT_SCORING_WEIGHTS, parseWeights, SUBSCORE_NAMES } from "@/engine/scoring/weights";
import {
  type Chapter,
  isLayoutChoice,
  LAYOUT_CHOICES,
  type LayoutChoice,
  type Reason,
  type ScoringWeights,
  type SignalMode,
  type Subscores,
  type TranscriptSegment,
} from "@/engine/types";
import { formatCount } from "@/lib/format-count";
import { type MediaBinaries, resolveMediaBinaries } from "@/media/ffmpeg-binaries";
import { probeMedia } from "@/media/probe";
import { ensureSeekableSource, needsSeekableCopy } from "@/media/seekable-copy";
import { type CliOutput, stderrOutput } from "./cli-output";
import { downloadToFile } from "./download-to-file";
import {
  clipBaseName,
  findOutputThatIsInput,
  listEarlierOutputs,
  namesWrittenByRun,
  prepareOutputFolder,
  publishOutputs,
  REPORT_FILE_NAME,
} from "./output-folder";

export const CLIP_USAGE = `Usage: npx truss clip <file-or-url> --out <dir> [options]

Finds the best moments of a video, scores and explains them, and renders each as a
1080×1920 clip with a thumbnail and a preview. Writes <dir>/report.json.

Options:
  --out <dir>            where clips and report.json go (required)
  --top <N>              at most how many clips (default 5, at most ${MAX_TOP_N}); fewer
                         when fewer moments stand out
  --min-seconds <S>      shortest clip (default ${DEFAULT_MOMENT_OPTIONS.minSeconds}, at least ${SHORTEST_CLIP_SECONDS})
  --max-seconds <S>      longest clip (default ${DEFAULT_MOMENT_OPTIONS.maxSeconds}, at most ${LONGEST_CLIP_SECONDS})
  --weights <W>          what a score counts, e.g. hook=0.3,speech=0.3 (names: ${SUBSCORE_NAMES.join(", ")};
                         those left out keep their default)
  --mode fast|full       signal pass: keyframes only (fast) or every frame (full); default ${DEFAULT_SIGNAL_MODE}
  --captions <file>      an SRT or VTT transcript to burn in as captions
  --layout <L>           auto (default: decided per clip), crop, fit or facecam
  --no-render            analyse and write report.json only
  --verbose              also say how each clip's framing was decided
  -h, --help             this text

Each run replaces the clips and report.json of an earlier run in <dir>; other files there
are left alone. Put "--" before a file name that starts with "-".`;

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
  weights: ScoringWeights;
  mode: SignalMode;
  captionsPath: string | null;
  layoutChoice: LayoutChoice;
  render: boolean;
  /** Print the renderer's notes (how the subject was looked for, why this layout). */
  verbose: boolean;
};

const VALUE_FLAGS = [
  "--out",
  "--top",
  "--min-seconds",
  "--max-seconds",
  "--weights",
  "--mode",
  "--captions",
  "--layout",
];
/** Digits only: Number() would also take "0x3", "1e1", " 5 " and "". */
const WHOLE_NUMBER = /^\d+$/;
const DECIMAL_NUMBER = /^\d+(?:\.\d+)?$/;

/** Pure: `clip` command-line arguments → options, or a UsageError saying what is wrong. */
export function parseClipArgs(argv: readonly string[]): ClipCommandOptions {
  const positional: string[] = [];
  const values = new Map<string, string>();
  let render = true;
  let verbose = false;
  let optionsEnded = false;
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] ?? "";
    if (optionsEnded || arg === "-" || !arg.startsWith("-")) {
      positional.push(arg);
      continue;
    }
    // After "--" every argument is the video, even a file name that starts with "-".
    if (arg === "--") {
      optionsEnded = true;
      continue;
    }
    const [flag = "", inline] = arg.split(/=(.*)/s, 2);
    if (flag === "--no-render" || flag === "--verbose") {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
      if (flag === "--no-render") render = false;
      else verbose = true;
      continue;
    }
    if (!VALUE_FLAGS.includes(flag)) throw new UsageError(`Unknown option ${flag}`);
    let value = inline;
    if (value === undefined) {
      index += 1;
      value = argv[index];
    }
    if (value === undefined || value === "" || value.startsWith("--"))
      throw new UsageError(`${flag} needs a value`);
    values.set(flag, value);
  }
  const input = positional[0] ?? "";
  if (positional.length !== 1 || input === "") throw new UsageError("Give exactly one video file or URL");
  const outDir = values.get("--out");
  if (!outDir) throw new UsageError("--out <dir> is required");
  const mode = values.get("--mode") ?? DEFAULT_SIGNAL_MODE;
  if (mode !== "fast" && mode !== "full") throw new UsageError("--mode must be fast or full");
  const layoutChoice = values.get("--layout") ?? "auto";
  if (!isLayoutChoice(layoutChoice))
    throw new UsageError(`--layout must be one of ${LAYOUT_CHOICES.join(", ")}`);
  const number = (flag: string, pattern: RegExp, expected: string) => {
    const raw = values.get(flag);
    if (raw === undefined) return undefined;
    if (!pattern.test(raw)) throw new UsageError(`${flag} must be ${expected}, not "${raw}"`);
    return Number(raw);
  };
  const topN = number("--top", WHOLE_NUMBER, `a whole number from 1 to ${MAX_TOP_N}`);
  const minSeconds = number("--min-seconds", DECIMAL_NUMBER, "a number of seconds, like 15 or 7.5");
  const maxSeconds = number("--max-seconds", DECIMAL_NUMBER, "a number of seconds, like 60 or 7.5");
  // Alone, a --max-seconds under the default minimum conflicts with a value nobody typed.
  if (
    minSeconds === undefined &&
    maxSeconds !== undefined &&
    maxSeconds < DEFAULT_MOMENT_OPTIONS.minSeconds
  ) {
    throw new UsageError(
      `--max-seconds ${maxSeconds} is below the default --min-seconds of ${DEFAULT_MOMENT_OPTIONS.minSeconds}; give a --min-seconds of at most ${maxSeconds} too`,
    );
  }
  let weights = DEFAULT_SCORING_WEIGHTS;
  const weightsText = values.get("--weights");
  try {
    if (weightsText !== undefined) weights = parseWeights(weightsText);
  } catch (error) {
    throw new UsageError(`--weights: ${(error as Error).message}`);
  }
  let resolved: ReturnType<typeof resolveMomentOptions>;
  try {
    resolved = resolveMomentOptions({ topN, minSeconds, maxSeconds });
  } catch (error) {
    throw new UsageError(
      (error as Error).message
        .replace("topN", "--top")
        .replace(/minSeconds/g, "--min-seconds")
        .replace("maxSeconds", "--max-seconds"),
    );
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input) && !/^https?:\/\//i.test(input)) {
    throw new UsageError("Only http(s) URLs can be downloaded");
  }
  return {
    input,
    outDir,
    topN: resolved.topN,
    minSeconds: resolved.minSeconds,
    maxSeconds: resolved.maxSeconds,
    weights,
    mode,
    captionsPath: values.get("--captions") ?? null,
    layoutChoice,
    render,
    verbose,
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
  /** Where progress goes: stderr unless given (see cli-output.ts). */
  output?: CliOutput;
  signal?: AbortSignal;
  /** Whole-download limit for URL inputs (30 min unless given). */
  downloadTimeoutMs?: number;
  /** How long a download may receive nothing before it counts as stalled (60 s unless given). */
  downloadIdleTimeoutMs?: number;
};

/**
 * Runs `truss clip`: checks → download (for a URL) → probe → signals → local analysis →
 * render each clip → report.json. Clips are rendered into a temporary folder and moved into
 * --out only when the run succeeds, replacing the earlier run's; a failed or cancelled run
 * leaves --out as it was. The temporary folder goes whatever happens.
 */
export async function runClipCommand(
  options: ClipCommandOptions,
  dependencies: ClipCommandDependencies = {},
): Promise<ClipReport> {
  const output = dependencies.output ?? stderrOutput();
  const log = output.line;
  const { signal } = dependencies;
  const binaries = dependencies.binaries ?? resolveMediaBinaries();
  const startedAt = performance.now();
  const elapsed = (since: number) => (performance.now() - since) / 1000;
  const isUrl = /^https?:\/\//i.test(options.input);

  // What can be checked in a moment is, before a download or an analysis spends minutes.
  if (!isUrl) {
    await access(options.input).catch(() => {
      throw new Error(`No such file: ${options.input}`);
    });
  }
  await prepareOutputFolder(options.outDir);
  const earlierOutputs = await listEarlierOutputs(options.outDir);
  if (!isUrl) {
    const inputAsOutput = await findOutputThatIsInput(options.input, options.outDir, [
      ...namesWrittenByRun(options.render ? options.topN : 0),
      ...earlierOutputs,
    ]);
    if (inputAsOutput) {
      const outputPath = path.join(options.outDir, inputAsOutput);
      const sameName = path.resolve(options.input) === path.resolve(outputPath);
      throw new Error(
        `Refusing to overwrite the video: ${sameName ? `${inputAsOutput} in ${options.outDir} is` : `${options.input} is the same file as ${outputPath},`} a file this run would replace (its clips and ${REPORT_FILE_NAME} go in --out, in place of an earlier run's). Copy the video out of ${options.outDir}, or choose another --out folder.`,
      );
    }
  }

  // Loads during the download and the analysis instead of holding up the first clip.
  if (options.render) void prepareRenderer(binaries.ffmpegPath);
  /** Holds a downloaded source, a seekable copy, the renders' work and the finished clips. */
  const workDirectory = await mkdtemp(path.join(tmpdir(), "truss-cli-"));
  try {
    let sourcePath = options.input;
    let downloadSeconds: number | null = null;
    if (isUrl) {
      const started = performance.now();
      sourcePath = await downloadToFile({
        url: options.input,
        directory: workDirectory,
        timeoutMs: dependencies.downloadTimeoutMs,
        idleTimeoutMs: dependencies.downloadIdleTimeoutMs,
        signal,
        log,
      });
      downloadSeconds = elapsed(started);
    }

    const probeStarted = performance.now();
    const sourceProbe = await probeMedia({ binaries, input: sourcePath, signal });
    const sourceProbeSeconds = elapsed(probeStarted);
    // The worker's limit: below it a "clip" would be a fragment, or for a still image nothing.
    const tooShort = describeTooShortToClip(sourceProbe.durationSeconds);
    if (tooShort) throw new Error(tooShort);
    // A stream capture (MPEG-TS) cannot be cut exactly: clips are made from a copy that can.
    const copied = needsSeekableCopy(sourceProbe.formatName);
    if (copied) {
      log(`Copying the ${sourceProbe.formatName} stream into Matroska, which can be cut exactly…`);
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
      weights: options.weights,
    });
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
        if (stage === "signals") output.progress(`Measuring sound and motion (${options.mode})`, fraction);
        else if (fraction === 0) log(stage === "probe" ? "Reading the video…" : "Finding the best moments…");
      },
    });
    log(
      `${probe.width}×${probe.height}, ${formatDuration(probe.durationSeconds)}: ${formatCount(analysis.moments.length, "clip")}, ${formatCount(analysis.chapters.length, "chapter")}`,
    );

    const stagingDirectory = path.join(workDirectory, "clips");
    await mkdir(stagingDirectory);
    const renderSeconds: number[] = [];
    const clips: ClipReport["clips"] = [];
    for (const moment of analysis.moments) {
      const rank = moment.ordinal + 1;
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
            outputDir: stagingDirectory,
            baseName: clipBaseName(rank),
            signal,
            onProgress: (fraction) => output.progress("  rendering", fraction),
          },
          // Its work folder inside ours: whatever ends the run, one removal takes everything.
          {
            binaries,
            log: options.verbose ? (message) => log(`  ${message}`) : () => {},
            temporaryDirectory: workDirectory,
          },
        );
        clip.file = path.basename(rendered.videoPath);
        clip.thumbnail = path.basename(rendered.thumbnailPath);
        clip.preview = path.basename(rendered.previewPath);
        clip.layout = rendered.layout;
        log(
          `  ${clip.file} (${RENDERED_LAYOUT_WORDS[rendered.layout]}), rendered in ${formatDuration(elapsed(started))}`,
        );
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
    signal?.throwIfAborted();
    const { removed } = await publishOutputs({
      stagingDir: stagingDirectory,
      outDir: options.outDir,
      fileNames: clips.flatMap((clip) =>
        [clip.file, clip.thumbnail, clip.preview].filter((name): name is string => name !== null),
      ),
      earlierOutputs,
      reportText: `${JSON.stringify(report, null, 2)}\n`,
    });
    if (removed.length > 0)
      log(`Removed ${formatCount(removed.length, "file")} of the earlier run that this one did not replace`);
    log(`Wrote ${path.join(options.outDir, REPORT_FILE_NAME)} in ${report.timings.totalSeconds} s`);
    return report;
  } finally {
    await rm(workDirectory, { recursive: true, force: true });
  }
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
