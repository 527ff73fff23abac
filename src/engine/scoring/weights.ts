import type { ScoringWeights, SubscoreName, Subscores } from "@/engine/types";

/**
 * How much each sub-score counts towards a clip's score. The score is the weighted mean of the
 * sub-scores that exist (`chat` is null without chat, and then its weight is left out), so it
 * stays on the same 0..100 scale with or without chat.
 *
 * - hook 0.25: short-form viewers decide in the first seconds; a clip that opens on something
 *   happening keeps them.
 * - audioEnergy 0.20: loudness and bursts above the video's normal level (laughs, shouts, hits).
 * - visualDynamics 0.20: motion and cuts.
 * - speech 0.20: talk carries most shareable clips (a line, a joke, an explanation).
 * - chat 0.15: when a live chat exists, a spike in messages is the audience saying "this".
 *
 * A clip strong in one channel scores about 50–60; strong in several, 75 and up; an uneventful
 * stretch stays under about 15.
 */
export const DEFAULT_SCORING_WEIGHTS: ScoringWeights = {
  hook: 0.25,
  audioEnergy: 0.2,
  visualDynamics: 0.2,
  speech: 0.2,
  chat: 0.15,
};

export const SUBSCORE_NAMES: SubscoreName[] = ["hook", "audioEnergy", "visualDynamics", "speech", "chat"];

/** Weighted mean of the available sub-scores, 0..100, rounded to a whole number. */
export function combineSubscores(subscores: Subscores, weights: ScoringWeights): number {
  let weighted = 0;
  let totalWeight = 0;
  for (const name of SUBSCORE_NAMES) {
    const value = subscores[name];
    const weight = Math.max(0, weights[name] ?? 0);
    if (value === null || weight === 0) continue;
    weighted += weight * value;
    totalWeight += weight;
  }
  if (totalWeight === 0) return 0;
  return Math.round(Math.min(100, Math.max(0, weighted / totalWeight)));
}

/** Accepts partial weights (missing names fall back to the defaults); rejects negative or all-zero sets. */
export function resolveWeights(weights: Partial<ScoringWeights> | undefined): ScoringWeights {
  const resolved = { ...DEFAULT_SCORING_WEIGHTS, ...weights };
  for (const name of SUBSCORE_NAMES) {
    const value = resolved[name];
    if (!Number.isFinite(value) || value < 0)
      throw new Error(`Scoring weight "${name}" must be a number ≥ 0`);
  }
  if (SUBSCORE_NAMES.every((name) => resolved[name] === 0))
    throw new Error("At least one scoring weight must be above 0");
  return resolved;
}

/**
 * Weights as an operator writes them (`TRUSS_SCORING_WEIGHTS`, `truss clip --weights`):
 * `name=value` pairs separated by commas, e.g. `hook=0.3,speech=0.3`. Names left out keep their
 * default; the result is checked as `resolveWeights` checks it.
 */
export function parseWeights(text: string): ScoringWeights {
  const weights: Partial<ScoringWeights> = {};
  for (const pair of text.split(",").map((part) => part.trim())) {
    const match = /^(\w+)\s*=\s*(\S+)$/.exec(pair);
    if (!match) throw new Error(`"${pair}" is not name=value (e.g. hook=0.3)`);
    const [, name = "", value = ""] = match;
    if (!SUBSCORE_NAMES.includes(name as SubscoreName))
      throw new Error(`"${name}" is not a sub-score; the names are ${SUBSCORE_NAMES.join(", ")}`);
    const weight = Number(value);
    if (!/^\d*\.?\d+$/.test(value) || !Number.isFinite(weight))
      throw new Error(`${name}=${value}: the weight must be a number ≥ 0`);
    weights[name as SubscoreName] = weight;
  }
  return resolveWeights(weights);
}
