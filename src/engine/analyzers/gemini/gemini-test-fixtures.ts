import type {
  AnalysisInput,
  AnalysisResult,
  Analyzer,
  MediaProbe,
  PlatformCopy,
  ScoredMoment,
  SignalCurve,
} from "@/engine/types";
import type { GeminiAnalysis, GeminiMoment } from "./gemini-analysis-schema";

/**
 * Shared inputs for the Gemini analyzer's tests: a 120 s video whose signals are quiet except
 * for a loud, busy burst at 40–55 s (which the local result below "missed"), a local result
 * standing in for the local analyzer (a dependency these tests do not own), and a Gemini answer.
 */

export const DURATION_SECONDS = 120;
export const WEIGHTS = { hook: 0.3, audioEnergy: 0.25, visualDynamics: 0.2, speech: 0.15, chat: 0.1 };

export function makeProbe(overrides: Partial<MediaProbe> = {}): MediaProbe {
  return {
    durationSeconds: DURATION_SECONDS,
    width: 320,
    height: 240,
    codedWidth: 320,
    codedHeight: 240,
    sampleAspectRatio: 1,
    rotationDegrees: 0,
    fps: 25,
    isVariableFrameRate: false,
    hasVideo: true,
    hasAudio: true,
    videoCodec: "h264",
    audioCodec: "aac",
    bitrateBitsPerSecond: 500_000,
    formatName: "mov,mp4,m4a,3gp,3g2,mj2",
    dynamicRange: "sdr",
    sizeBytes: 7_500_000,
    ...overrides,
  };
}

export function makeSignals(durationSeconds = DURATION_SECONDS): SignalCurve {
  const seconds = Array.from({ length: Math.ceil(durationSeconds) }, (_, i) => i);
  const inBurst = (i: number) => i >= 40 && i < 55;
  return {
    mode: "full",
    durationSeconds,
    rmsDb: seconds.map((i) => (inBurst(i) ? -12 : -35)),
    peakDb: seconds.map((i) => (inBurst(i) ? -2 : -25)),
    momentaryLufs: seconds.map((i) => (inBurst(i) ? -12 : -38)),
    sceneScore: seconds.map((i) => (inBurst(i) && i % 3 === 0 ? 0.8 : 0.02)),
    motion: seconds.map((i) => (inBurst(i) ? 0.15 : 0.01)),
    silences: [{ startSeconds: 100, endSeconds: 110 }],
    sceneCutsSeconds: [41, 44, 47, 50, 53],
  };
}

export function makeInput(overrides: Partial<AnalysisInput> = {}): AnalysisInput {
  return {
    sourceFile: async () => "/nonexistent/source.mp4",
    probe: makeProbe(),
    signals: makeSignals(),
    options: { topN: 3, minSeconds: 10, maxSeconds: 30, weights: WEIGHTS },
    ...overrides,
  };
}

/** An https presigned-style URL: Gemini fetches it itself, so no proxy is made. */
export const SIGNED_SOURCE_URL =
  "https://truss-media.s3.us-east-1.amazonaws.com/videos/vid_01/source.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc123";

function localMoment(moment: Omit<ScoredMoment, "platformCopy" | "hookLine">): ScoredMoment {
  return { ...moment, hookLine: null, platformCopy: null };
}

export const LOCAL_RESULT: AnalysisResult = {
  analyzer: "local",
  fallbackReason: null,
  moments: [
    localMoment({
      ordinal: 0,
      startSeconds: 70,
      endSeconds: 90,
      score: 62,
      subscores: { hook: 60, audioEnergy: 65, visualDynamics: 55, speech: 70, chat: null },
      reasons: [{ atSeconds: 72, text: "Audio peak at 1:12" }],
      title: "Loud stretch at 1:10",
    }),
    localMoment({
      ordinal: 1,
      startSeconds: 10,
      endSeconds: 25,
      score: 40,
      subscores: { hook: 35, audioEnergy: 40, visualDynamics: 30, speech: 60, chat: null },
      reasons: [{ atSeconds: 12, text: "Speech starts right away" }],
      title: "Opening at 0:10",
    }),
  ],
  chapters: [
    { startSeconds: 0, endSeconds: 60, title: "Part 1" },
    { startSeconds: 60, endSeconds: 120, title: "Part 2" },
  ],
  transcript: [],
  interestCurve: Array.from({ length: DURATION_SECONDS }, (_, i) => (i >= 40 && i < 55 ? 0.9 : 0.2)),
};

/** Stands in for the local analyzer: returns a fixed result and counts its calls. */
export function fixedLocalAnalyzer(result: AnalysisResult = LOCAL_RESULT): Analyzer & { calls: number } {
  const analyzer = {
    name: "local" as const,
    calls: 0,
    async analyze(): Promise<AnalysisResult> {
      analyzer.calls++;
      return structuredClone(result);
    },
  };
  return analyzer;
}

export function platformCopyFor(
  title: string,
): Record<"youtube" | "tiktok" | "twitch" | "discord", PlatformCopy> {
  const copy = (platform: string) => ({
    title: `${title} (${platform})`,
    description: `Watch ${title} on ${platform}`,
    hashtags: ["#clips", "shorts", "#Funny Moments"],
  });
  return {
    youtube: copy("youtube"),
    tiktok: copy("tiktok"),
    twitch: copy("twitch"),
    discord: copy("discord"),
  };
}

export function geminiMoment(
  overrides: Partial<GeminiMoment> & Pick<GeminiMoment, "startSeconds" | "endSeconds">,
): GeminiMoment {
  const title = overrides.title ?? `Clip at ${overrides.startSeconds}`;
  return {
    title,
    hookLine: `Hook for ${title}`,
    score: 75,
    reasons: [{ atSeconds: overrides.startSeconds + 1, text: `Gemini likes ${title}` }],
    platformCopy: platformCopyFor(title),
    ...overrides,
  };
}

/** Gemini's answer: one clip matching a local one (11–26), one the local result missed (40–55). */
export function geminiAnswer(overrides: Partial<GeminiAnalysis> = {}): GeminiAnalysis {
  return {
    moments: [
      geminiMoment({ startSeconds: 11, endSeconds: 26, score: 90, title: "The opening joke" }),
      geminiMoment({ startSeconds: 40, endSeconds: 55, score: 80, title: "The big crash" }),
    ],
    chapters: [
      { startSeconds: 0, title: "Intro" },
      { startSeconds: 38, title: "The crash" },
      { startSeconds: 80, title: "Wrap-up" },
    ],
    transcript: [
      { startSeconds: 11, endSeconds: 14, text: "So here's the thing." },
      { startSeconds: 14, endSeconds: 18, text: "Nobody expected that." },
    ],
    ...overrides,
  };
}
