import type { DynamicRange } from "@/media/dynamic-range";
import type { HttpHeaders } from "@/media/probe-args";

/**
 * The clip engine's contract: what each stage takes and gives. The engine knows nothing of
 * AWS, the table or the web app; the worker (src/worker) and the CLI (bin/truss.ts) compose
 * these stages, persisting between them where they need to.
 *
 *   probe ─▶ extract signals ─▶ analyze (local, or Gemini fused with local) ─▶ render each clip
 *                                   └─▶ chapters, transcript, interest curve
 */

/** What ffprobe says about a source, normalised. Dimensions are as displayed (after rotation). */
export type MediaProbe = {
  durationSeconds: number;
  width: number;
  height: number;
  codedWidth: number;
  codedHeight: number;
  /** Width ÷ height of one stored pixel; 1 but for anamorphic sources (e.g. 4/3 for HDV). */
  sampleAspectRatio: number;
  rotationDegrees: 0 | 90 | 180 | 270;
  fps: number;
  isVariableFrameRate: boolean;
  hasVideo: boolean;
  hasAudio: boolean;
  videoCodec: string | null;
  audioCodec: string | null;
  bitrateBitsPerSecond: number | null;
  formatName: string;
  sizeBytes: number | null;
  /** How the picture's brightness is encoded; HDR is tone-mapped for clips (media/dynamic-range.ts). */
  dynamicRange: DynamicRange;
  /**
   * Where the picture ends, in seconds from the file's start, when it stops a second or more
   * before the file does (its audio runs on); null (or absent, in probes stored before it was
   * read) when it runs to the end or the header does not say. Clips are only cut before it.
   */
  pictureEndSeconds?: number | null;
};

/** How much of a source can be clipped: up to where its picture ends. */
export function clipableSeconds(probe: Pick<MediaProbe, "durationSeconds" | "pictureEndSeconds">): number {
  return Math.min(probe.durationSeconds, probe.pictureEndSeconds ?? Number.POSITIVE_INFINITY);
}

/** How signals are extracted: `full` decodes every frame, `fast` only the keyframes (audio is whole in both). */
export type SignalMode = "fast" | "full";

/** Per-second signals from one ffmpeg pass. Index i covers [i, i+1) seconds. */
export type SignalCurve = {
  mode: SignalMode;
  durationSeconds: number;
  /** RMS level per second, dBFS (−90 for digital silence or no audio). */
  rmsDb: number[];
  /** Peak level per second, dBFS. */
  peakDb: number[];
  /** EBU R128 momentary loudness per second, LUFS (−70 floor). */
  momentaryLufs: number[];
  /** Highest scene-change score within each second, 0..1. */
  sceneScore: number[];
  /** Mean inter-frame difference within each second, 0..1 (motion at low resolution). */
  motion: number[];
  silences: TimeRange[];
  /** Times of detected scene cuts, seconds. */
  sceneCutsSeconds: number[];
  /**
   * Times of the video's keyframes, seconds: listed by the fast pass from the packets it reads
   * anyway (absent in full mode). A render uses them to skip a keyframe scan that could not
   * change its plan.
   */
  keyframesSeconds?: number[];
  /**
   * Spread (standard deviation, dB) of the ten 100 ms RMS levels within each second, levels
   * floored at −60 dBFS: speech swings 5–20 dB between syllables and pauses, steady noise or
   * sustained music 0–3 dB. Optional: curves made by other means may lack it.
   */
  loudnessSwingDb?: number[];
  /**
   * Level of the voice band (≈100 Hz–4 kHz) relative to the whole signal per second, dB (≤ 0):
   * near 0 when the energy sits where voices are (speech: −0.5 to 0), −4 or lower for hiss,
   * rumble or broadband noise (pink noise −4, white noise −8). Optional, as `loudnessSwingDb`.
   */
  voiceBandRatioDb?: number[];
};

export type TimeRange = { startSeconds: number; endSeconds: number };

/** Live-chat activity aligned to the video timeline; filled by the live-stream work. */
export type ChatActivity = { messagesPerSecond: number[] };

/** Each sub-score is 0..100. `chat` is null when the source had no chat. */
export type Subscores = {
  hook: number;
  audioEnergy: number;
  visualDynamics: number;
  speech: number;
  chat: number | null;
};

export type SubscoreName = keyof Subscores;

export type ScoringWeights = Record<SubscoreName, number>;

/** A reason a person can read, tied to the moment in the video it talks about. */
export type Reason = { atSeconds: number; text: string };

export type PlatformCopy = { title: string; description: string; hashtags: string[] };

export type ScoredMoment = {
  /** Position in the video's analysis (0-based, by score rank); stable across retries. */
  ordinal: number;
  startSeconds: number;
  endSeconds: number;
  /** 0..100, comparable across videos (not rank-normalised per video). */
  score: number;
  subscores: Subscores;
  reasons: Reason[];
  title: string;
  hookLine: string | null;
  /** Suggested per-platform copy (Gemini only). */
  platformCopy: Partial<Record<"youtube" | "tiktok" | "twitch" | "discord", PlatformCopy>> | null;
};

export type Chapter = { startSeconds: number; endSeconds: number; title: string };

export type TranscriptSegment = { startSeconds: number; endSeconds: number; text: string };

export type MomentOptions = {
  /** How many clips to keep (default 5, at most 20). */
  topN: number;
  minSeconds: number;
  maxSeconds: number;
  weights: ScoringWeights;
};

export type AnalysisInput = {
  /**
   * The source as a file on this machine, asked for only by an analyzer that reads it (Gemini's
   * low-resolution proxy, where it cannot send a URL): a worker holding only the stored object
   * downloads it then, not for an analysis of stored signals (other clips asked for).
   */
  sourceFile: () => Promise<string>;
  /** A URL the analyzer may fetch the source from (a presigned GET), when there is one. */
  sourceUrl?: string;
  probe: MediaProbe;
  signals: SignalCurve;
  chat?: ChatActivity;
  /** A transcript the creator supplied (SRT/VTT), if any. */
  transcript?: TranscriptSegment[];
  options: MomentOptions;
  signal?: AbortSignal;
};

export type AnalysisResult = {
  analyzer: "local" | "gemini";
  /** Set when Gemini was configured but its answer could not be used; the local result stands. */
  fallbackReason: string | null;
  moments: ScoredMoment[];
  chapters: Chapter[];
  transcript: TranscriptSegment[];
  /** The combined interest curve, one value 0..1 per second, for the timeline plot. */
  interestCurve: number[];
};

/** One interface, two implementations: local signals, or Gemini fused with local signals. */
export interface Analyzer {
  readonly name: "local" | "gemini";
  analyze(input: AnalysisInput): Promise<AnalysisResult>;
}

export type RenderLayout = "crop" | "fit" | "native-vertical" | "facecam";

/**
 * The layout a creator asks for: `auto` lets the render decide from the picture; the others
 * are taken as far as the source allows (a vertical source is never cropped, a face cam needs
 * a face).
 */
export const LAYOUT_CHOICES = ["auto", "crop", "fit", "facecam"] as const;
export type LayoutChoice = (typeof LAYOUT_CHOICES)[number];
export const isLayoutChoice = (value: string): value is LayoutChoice =>
  (LAYOUT_CHOICES as readonly string[]).includes(value);

export type RenderClipInput = {
  /** A local file, or a URL that ffmpeg reads in ranges. */
  sourcePath: string;
  /** Sent with every request when `sourcePath` is a URL (`If-Match`: only the checked object). */
  sourceHttpHeaders?: HttpHeaders;
  probe: MediaProbe;
  startSeconds: number;
  endSeconds: number;
  /** Scene cuts of the source (seconds); the crop may only jump at these. */
  sceneCutsSeconds: number[];
  /**
   * The source's per-second motion (its signal curve's `motion`): where it shows a still
   * picture, the subject can be judged from keyframes alone. Without it, every moving-or-not
   * stretch between sparse keyframes is decoded again at 4 fps.
   */
  motionPerSecond?: number[];
  /** The source's keyframe times (its signal curve's `keyframesSeconds`), when known. */
  keyframesSeconds?: number[];
  /** Burned in as captions when present. */
  transcript?: TranscriptSegment[];
  /** The creator's choice of layout; `auto` when absent. */
  layoutChoice?: LayoutChoice;
  outputDir: string;
  /** File stem; outputs are <baseName>.mp4, <baseName>.jpg, <baseName>.preview.webp|mp4. */
  baseName: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
};

/**
 * How the subject was found: on the keyframes alone, or on frames sampled at 4 fps (a second
 * decode of the segment); null when nothing was to be decided (a vertical source).
 */
export type SubjectSampling = "keyframes" | "frames";

export type RenderedClip = {
  videoPath: string;
  thumbnailPath: string;
  previewPath: string;
  layout: RenderLayout;
  subjectSampling: SubjectSampling | null;
  width: 1080;
  height: 1920;
  durationSeconds: number;
};
