import type { ReactNode } from "react";
import { cx } from "./cx";

export type AlertTone = "info" | "success" | "warning" | "danger";

const TONE_CLASSES: Record<AlertTone, string> = {
  info: "border-brand-100 bg-brand-50 text-brand-700",
  success: "border-emerald-200 bg-emerald-50 text-emerald-800",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  danger: "border-red-200 bg-red-50 text-red-800",
};

/** An inline message; `danger` and `warning` are announced to screen readers at once. */
export function Alert({
  tone = "info",
  title,
  children,
  className,
}: {
  tone?: AlertTone;
  title?: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === "danger" || tone === "warning" ? "alert" : "status"}
      className={cx("rounded-lg border px-4 py-3 text-sm", TONE_CLASSES[tone], className)}
    >
      {title && <p className="font-medium">{title}</p>}
      {children && <div className={cx(title && "mt-1", "opacity-90")}>{children}</div>}
    </div>
  );
}
