import type { SubscoreName } from "@/engine/types";

/** How a score reads at a glance: strong (≥ 80), good (≥ 60), fair (≥ 40), weak. */
export type ScoreBand = "strong" | "good" | "fair" | "weak";

/** The lowest score of each band above "weak". */
export const SCORE_BAND_FLOORS = { strong: 80, good: 60, fair: 40 } as const;

export function scoreBand(score: number): ScoreBand {
  if (score >= SCORE_BAND_FLOORS.strong) return "strong";
  if (score >= SCORE_BAND_FLOORS.good) return "good";
  if (score >= SCORE_BAND_FLOORS.fair) return "fair";
  return "weak";
}

export const SCORE_BAND_LABELS: Record<ScoreBand, string> = {
  strong: "Strong",
  good: "Good",
  fair: "Fair",
  weak: "Weak",
};

/** Tailwind classes per band: a solid fill, its text colour, a soft background, an SVG stroke. */
export const SCORE_BAND_CLASSES: Record<
  ScoreBand,
  { fill: string; text: string; soft: string; stroke: string }
> = {
  strong: {
    fill: "bg-emerald-500",
    text: "text-emerald-700",
    soft: "bg-emerald-50",
    stroke: "stroke-emerald-500",
  },
  good: { fill: "bg-brand-500", text: "text-brand-700", soft: "bg-brand-50", stroke: "stroke-brand-500" },
  fair: { fill: "bg-amber-400", text: "text-amber-800", soft: "bg-amber-50", stroke: "stroke-amber-400" },
  weak: { fill: "bg-slate-400", text: "text-slate-600", soft: "bg-slate-100", stroke: "stroke-slate-400" },
};

/** SVG fill colours per band (for the timeline markers), matching the classes above. */
export const SCORE_BAND_COLORS: Record<ScoreBand, string> = {
  strong: "#10b981",
  good: "#4f6bff",
  fair: "#fbbf24",
  weak: "#94a3b8",
};

/**
 * What each sub-score measures, as src/engine/scoring/score-moment.ts computes it (the explainer
 * shows the hints lowercased, after a dash). Speech counts caption lines, or voice-like sound
 * without them: loud music scores 0. Audio energy is mostly how far the clip rises above the
 * video's usual level, so a steadily loud video scores low.
 */
export const SUBSCORE_LABELS: Record<SubscoreName, { label: string; hint: string }> = {
  hook: {
    label: "Hook",
    hint: "How much happens in the first 3 s, and whether it opens on a cut or a jump in sound",
  },
  audioEnergy: {
    label: "Audio energy",
    hint: "How loud the clip is, and how far it rises above the rest of the video",
  },
  visualDynamics: { label: "Visual dynamics", hint: "Motion and scene cuts" },
  speech: { label: "Speech", hint: "How much of the clip is speech; music and other sounds do not count" },
  chat: {
    label: "Chat",
    hint: "How far live chat picks up during the clip, against the stream's usual pace",
  },
};

export const SUBSCORE_ORDER: SubscoreName[] = ["hook", "audioEnergy", "visualDynamics", "speech", "chat"];
