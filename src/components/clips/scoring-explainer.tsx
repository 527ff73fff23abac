import type { ScoringWeights } from "@/engine/types";
import { SCORE_BAND_FLOORS, SCORE_BAND_LABELS, SUBSCORE_LABELS, SUBSCORE_ORDER } from "./score-style";

/**
 * Each sub-score's share of a clip's score under `weights`, in whole percent. Chat counts only
 * where the source had chat; without it the others share its weight, as the score does.
 */
export function weightShares(
  weights: ScoringWeights,
): Array<{ label: string; hint: string; percent: number }> {
  const total = SUBSCORE_ORDER.reduce((sum, name) => sum + weights[name], 0);
  return SUBSCORE_ORDER.filter((name) => weights[name] > 0).map((name) => ({
    ...SUBSCORE_LABELS[name],
    percent: Math.round((100 * weights[name]) / total),
  }));
}

/** "How scores are made", folded under a page's header: the weights in effect and the bands. */
export function ScoringExplainer({ weights }: { weights: ScoringWeights }) {
  return (
    <details className="group -mt-4 mb-6 text-sm text-slate-600">
      <summary className="cursor-pointer select-none font-medium text-slate-700 hover:text-slate-900">
        How scores are made
      </summary>
      <div className="mt-3 flex max-w-3xl flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4">
        <p>
          A clip&apos;s score is the weighted mean of what it is measured on, each 0–100 on a fixed scale, so
          a quiet video&apos;s best clip scores low and scores compare across videos:
        </p>
        <ul className="grid gap-1.5 sm:grid-cols-2">
          {weightShares(weights).map((share) => (
            <li key={share.label} className="flex gap-2">
              <span className="w-10 shrink-0 text-right font-medium tabular-nums text-slate-900">
                {share.percent}%
              </span>
              <span>
                <span className="font-medium text-slate-800">{share.label}</span> — {share.hint.toLowerCase()}
              </span>
            </li>
          ))}
        </ul>
        <p className="text-slate-500">
          Chat counts only for live streams with chat; without it the others share its weight.{" "}
          {SCORE_BAND_LABELS.strong} is {SCORE_BAND_FLOORS.strong} and up,{" "}
          {SCORE_BAND_LABELS.good.toLowerCase()} {SCORE_BAND_FLOORS.good},{" "}
          {SCORE_BAND_LABELS.fair.toLowerCase()} {SCORE_BAND_FLOORS.fair}, below that{" "}
          {SCORE_BAND_LABELS.weak.toLowerCase()}. Each clip lists the moments behind its score.
        </p>
      </div>
    </details>
  );
}
