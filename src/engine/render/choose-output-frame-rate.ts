import type { MediaProbe } from "@/engine/types";

/**
 * The constant frame rate a clip is resampled to, or null to keep the source's. Platforms want
 * constant-rate uploads at most 60 fps: variable-rate phone footage becomes its rounded average
 * rate (24–60), and high-speed sources are halved to 50 (PAL-derived rates) or brought to 60.
 */
export function chooseOutputFrameRate(probe: Pick<MediaProbe, "fps" | "isVariableFrameRate">): number | null {
  const { fps } = probe;
  if (!Number.isFinite(fps) || fps <= 0) return 30;
  if (fps > 60) return Math.abs(fps / 50 - Math.round(fps / 50)) < 0.01 ? 50 : 60;
  if (probe.isVariableFrameRate) return Math.min(60, Math.max(24, Math.round(fps)));
  return null;
}
