import { cx } from "@/components/ui/cx";

/** A labelled progress bar (0..100) that screen readers and tests can read. */
export function ProgressBar({
  percent,
  label,
  tone = "brand",
  className,
}: {
  percent: number;
  label: string;
  tone?: "brand" | "success" | "danger" | "neutral";
  className?: string;
}) {
  const clamped = Math.max(0, Math.min(100, percent));
  const fill = {
    brand: "bg-brand-600",
    success: "bg-emerald-500",
    danger: "bg-red-500",
    neutral: "bg-slate-400",
  }[tone];
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(clamped)}
      className={cx("h-2 w-full overflow-hidden rounded-full bg-slate-100", className)}
    >
      <div
        className={cx("h-full rounded-full transition-[width] duration-300", fill)}
        style={{ width: `${clamped}%` }}
      />
    </div>
  );
}
