/**
 * How a picture's brightness is encoded. `sdr`: BT.709-like, as most video. `hlg` (hybrid
 * log-gamma) is what iPhones and many Android phones record by default; `pq` (SMPTE ST 2084) is
 * HDR10. Read as SDR, both look grey and washed out, so renders tone-map them to SDR BT.709
 * (tone-map-args.ts).
 */
export const DYNAMIC_RANGES = ["sdr", "hlg", "pq"] as const;
export type DynamicRange = (typeof DYNAMIC_RANGES)[number];

/** The transfer characteristic of each HDR range, as ffprobe reports it and zscale reads it. */
export const HDR_TRANSFER_NAMES: Record<Exclude<DynamicRange, "sdr">, string> = {
  hlg: "arib-std-b67",
  pq: "smpte2084",
};

/** The range a stream's transfer characteristic names; anything else (or none) is SDR. */
export function dynamicRangeOfTransfer(colorTransfer: string | undefined): DynamicRange {
  if (colorTransfer === HDR_TRANSFER_NAMES.hlg) return "hlg";
  if (colorTransfer === HDR_TRANSFER_NAMES.pq) return "pq";
  return "sdr";
}
