/** Small numeric helpers shared by the analysis stages. */

export function clamp(value: number, low = 0, high = 1): number {
  return Math.min(high, Math.max(low, value));
}

/** 0 at or below `low`, 1 at or above `high`, linear between. */
export function ramp(value: number, low: number, high: number): number {
  return clamp((value - low) / (high - low));
}

/** As `ramp`, on a logarithmic scale (for quantities that span orders of magnitude). */
export function logRamp(value: number, low: number, high: number): number {
  if (value <= low) return 0;
  return ramp(Math.log(value), Math.log(low), Math.log(high));
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

export function median(values: readonly number[]): number | undefined {
  return quantile(values, 0.5);
}

/** Linear-interpolated quantile (q in 0..1); undefined for an empty list. */
export function quantile(values: readonly number[], q: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const position = clamp(q) * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below] ?? 0;
  const high = sorted[above] ?? low;
  return low + (high - low) * (position - below);
}

/** Centered moving average over `windowSeconds` samples (edges use the part of the window that exists). */
export function movingAverage(values: readonly number[], windowSeconds: number): number[] {
  const half = Math.floor(windowSeconds / 2);
  const prefix = [0];
  for (const value of values) prefix.push((prefix.at(-1) ?? 0) + value);
  return values.map((_, index) => {
    const from = Math.max(0, index - half);
    const to = Math.min(values.length, index + half + 1);
    return ((prefix[to] ?? 0) - (prefix[from] ?? 0)) / (to - from);
  });
}

/** The values of `values` for whole seconds overlapping [startSeconds, endSeconds). */
export function sliceSeconds<T>(values: readonly T[], startSeconds: number, endSeconds: number): T[] {
  const from = Math.max(0, Math.floor(startSeconds));
  const to = Math.min(values.length, Math.max(from + 1, Math.ceil(endSeconds - 1e-6)));
  return values.slice(from, to);
}

export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
