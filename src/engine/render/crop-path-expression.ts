import type { CropPathPoint } from "./plan-crop-path";

/**
 * The crop path as an ffmpeg expression of `t` (seconds from the clip's start), evaluated by the
 * crop filter for every frame. It is written as a flat sum rather than nested `if`s:
 *
 *   c(t) = c0 + Σ slope·clip(t − tᵢ, 0, Δtᵢ)   (a ramp per moving segment)
 *             + Σ jump·gte(t, t_cut)            (a step per cut)
 *
 * so its size grows linearly with the points and no term depends on another.
 */
export function buildCropCenterExpression(path: CropPathPoint[]): string {
  const first = path[0];
  if (!first) return "0.5";
  const terms: string[] = [formatNumber(first.centerX)];
  for (let index = 0; index < path.length - 1; index += 1) {
    const from = path[index]!;
    const to = path[index + 1]!;
    const change = to.centerX - from.centerX;
    if (Math.abs(change) < 1e-6) continue;
    const duration = to.timeSeconds - from.timeSeconds;
    if (duration <= 0) {
      terms.push(`${formatNumber(change)}*gte(t,${formatNumber(from.timeSeconds)})`);
    } else {
      terms.push(
        `${formatNumber(change / duration)}*clip(t-${formatNumber(from.timeSeconds)},0,${formatNumber(duration)})`,
      );
    }
  }
  return terms.join("+").replace(/\+-/g, "-");
}

/**
 * The crop filter's `x` for a window of width `ow` centred on the path, kept inside the frame.
 * `iw` is the decoded (display-oriented) width, so the path stays right whatever the probe said.
 */
export function buildCropXExpression(path: CropPathPoint[]): string {
  return `clip(iw*(${buildCropCenterExpression(path)})-ow/2,0,iw-ow)`;
}

function formatNumber(value: number): string {
  const rounded = Number(value.toFixed(5));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}
