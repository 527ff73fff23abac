import type { Subscores } from "@/engine/types";
import { SCORE_BAND_CLASSES, SUBSCORE_LABELS, SUBSCORE_ORDER, scoreBand } from "./score-style";

/** One bar per sub-score (0..100); chat appears only when the source had chat. */
export function ScoreBreakdown({ subscores }: { subscores: Subscores }) {
  return (
    <dl className="flex flex-col gap-1.5">
      {SUBSCORE_ORDER.map((name) => {
        const value = subscores[name];
        if (value === null) return null;
        const { label, hint } = SUBSCORE_LABELS[name];
        return (
          <div
            key={name}
            className="grid grid-cols-[7.5rem_1fr_2rem] items-center gap-2 text-xs"
            title={hint}
          >
            <dt className="truncate text-slate-600">{label}</dt>
            {/* The bar pictures the number next to it; screen readers get the number. */}
            <dd className="h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
              <div
                className={`h-full rounded-full ${SCORE_BAND_CLASSES[scoreBand(value)].fill}`}
                style={{ width: `${Math.max(2, value)}%` }}
              />
            </dd>
            <dd className="text-right font-medium tabular-nums text-slate-700">{value}</dd>
          </div>
        );
      })}
    </dl>
  );
}
