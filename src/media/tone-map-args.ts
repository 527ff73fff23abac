import { type DynamicRange, HDR_TRANSFER_NAMES } from "./dynamic-range";

/** The ffmpeg filters tone mapping needs; the caller checks the build has them. */
export const TONE_MAP_FILTERS = ["zscale", "tonemap"] as const;

/**
 * A filter chain from an HDR picture to SDR BT.709 (8-bit 4:2:0, limited range), or null for an
 * SDR source. HDR read as if it were SDR comes out grey and washed out: BT.2020 colours shown as
 * BT.709 lose their saturation and an HDR transfer read as a gamma curve loses its contrast.
 *
 * zscale (zimg) turns the picture into linear light, 1.0 = 100 nits, and converts BT.2020
 * primaries to BT.709; `tonemap` then compresses what lies above SDR white. Möbius keeps
 * everything below 30% of SDR white as it is and rolls the rest off smoothly, so faces and
 * colours keep their look; Hable darkened the whole picture, a plain clip blows HLG's diffuse
 * white (203 nits) out to a flat white. The input's transfer, primaries and matrix are named
 * rather than read from the frames: phones tag HDR in the stream header, and a frame without
 * the tags would otherwise pass as SDR. HDR sources are BT.2020 (non-constant luminance) in
 * practice. Measured on a 608×1080 crop, the chain costs ~17 ms of CPU per frame, most of it in
 * `tonemap` (~14 ms), so the render runs it on the smaller of the source crop and the output.
 */
export function buildToneMapFilter(dynamicRange: DynamicRange): string | null {
  if (dynamicRange === "sdr") return null;
  return [
    // Linear light and BT.709 primaries in one zimg pass (as two, it cost 7% more).
    `zscale=tin=${HDR_TRANSFER_NAMES[dynamicRange]}:pin=bt2020:min=bt2020nc:t=linear:p=bt709:npl=100`,
    "format=gbrpf32le",
    "tonemap=tonemap=mobius:desat=0",
    "zscale=t=bt709:m=bt709:r=tv",
    "format=yuv420p",
  ].join(",");
}

/** Output options that say what a tone-mapped picture is: BT.709 throughout. */
export const BT709_OUTPUT_TAGS = [
  "-color_primaries",
  "bt709",
  "-color_trc",
  "bt709",
  "-colorspace",
  "bt709",
] as const;
