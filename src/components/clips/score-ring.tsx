import { cx } from "@/components/ui/cx";
import { SCORE_BAND_CLASSES, SCORE_BAND_LABELS, scoreBand } from "./score-style";

/** The virality score as a ring that fills to the score, with the number in the middle. */
export function ScoreRing({ score, size = "md" }: { score: number; size?: "sm" | "md" }) {
  const band = scoreBand(score);
  const radius = 15.5;
  const circumference = 2 * Math.PI * radius;
  return (
    <div
      className={cx("relative shrink-0", size === "sm" ? "h-10 w-10" : "h-14 w-14")}
      role="img"
      aria-label={`Virality score ${score} of 100 (${SCORE_BAND_LABELS[band].toLowerCase()})`}
    >
      <svg viewBox="0 0 36 36" className="h-full w-full -rotate-90" aria-hidden="true">
        <circle cx="18" cy="18" r={radius} fill="white" className="stroke-slate-200" strokeWidth="3" />
        <circle
          cx="18"
          cy="18"
          r={radius}
          fill="none"
          className={SCORE_BAND_CLASSES[band].stroke}
          strokeWidth="3"
          strokeLinecap="round"
          strokeDasharray={`${(circumference * score) / 100} ${circumference}`}
        />
      </svg>
      <span
        className={cx(
          "absolute inset-0 grid place-items-center font-bold tabular-nums",
          SCORE_BAND_CLASSES[band].text,
          size === "sm" ? "text-sm" : "text-lg",
        )}
      >
        {score}
      </span>
    </div>
  );
}
