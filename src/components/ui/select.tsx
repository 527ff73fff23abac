"use client";

import { type SelectHTMLAttributes, useId } from "react";
import { cx } from "./cx";

/** A labelled native select (native keeps keyboard and mobile behaviour for free). */
export function Select({
  label,
  hint,
  error,
  options,
  className,
  id,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & {
  label: string;
  hint?: string;
  error?: string | null;
  options: Array<{ value: string; label: string }>;
}) {
  const generatedId = useId();
  const selectId = id ?? generatedId;
  return (
    <div className={cx("flex flex-col gap-1.5", className)}>
      <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={selectId}
        aria-invalid={error ? true : undefined}
        className={cx(
          "h-10 rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm focus:outline-2 focus:outline-brand-500",
          error ? "border-red-400" : "border-slate-300",
        )}
        {...props}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p className="text-sm text-red-600">{error}</p>
      ) : hint ? (
        <p className="text-sm text-slate-500">{hint}</p>
      ) : null}
    </div>
  );
}
