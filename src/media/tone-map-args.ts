import { type DynamicRange, HDR_TRANSFER_NAMES } from "./dynamic-range";
import { escapeFilterValue } from "./escape-filter-value";

export type HdrRange = Exclude<DynamicRange, "sdr">;

/** The ffmpeg filters tone mapping needs (the exact chain builds the LUT that frames go through). */
export const TONE_MAP_FILTERS = ["zscale", "tonemap", "lut3d"] as const;

/**
 * Points per axis of the tone-mapping LUT. On a photo of people converted to HLG and to PQ, 33
 * came within 51.6–51.7 dB (PSNR) of the exact chain and 65 within 51.9–52.2, 98% of samples
 * equal or one level off either way: a finer lattice would not buy a visibly closer match.
 */
export const TONE_MAP_LUT_SIZE = 33;

/**
 * The exact HDR → SDR mapping, from R'G'B' (HDR transfer, BT.2020 primaries) to R'G'B' (BT.709),
 * as 32-bit floats. zscale (zimg) turns the picture into linear light, 1.0 = 100 nits, and
 * converts BT.2020 primaries to BT.709; `tonemap` then compresses what lies above SDR white.
 * Möbius keeps everything below 30% of SDR white as it is and rolls the rest off smoothly, so
 * faces and colours keep their look; Hable darkened the whole picture, a plain clip blows HLG's
 * diffuse white (203 nits) out to a flat white. HDR read as if it were SDR comes out grey and
 * washed out instead: BT.2020 colours shown as BT.709 lose their saturation and an HDR transfer
 * read as a gamma curve loses its contrast.
 *
 * Run on every frame, this chain took 44 ms of one core per 1080×1920 frame (single-threaded
 * filters, as renders run them), so it runs once, on a lattice of colours, to build a 3D LUT
 * that buildToneMapFilter applies: 27 ms per such frame, 7 of them converting to and from
 * 16-bit RGB. A 20 s 1080p30 HLG clip renders 10–26% sooner (five interleaved pairs).
 */
function exactToneMapChain(dynamicRange: HdrRange): string {
  return [
    // Linear light and BT.709 primaries in one zimg pass (as two, it cost 7% more).
    `zscale=tin=${HDR_TRANSFER_NAMES[dynamicRange]}:pin=bt2020:t=linear:p=bt709:npl=100`,
    "format=gbrpf32le",
    "tonemap=tonemap=mobius:desat=0",
    "zscale=t=bt709",
    "format=gbrpf32le",
  ].join(",");
}

/**
 * The lattice the LUT is measured on, as one raw `gbrp16le` picture of `size²` × `size` pixels
 * (planes G, B, R): every combination of `size` evenly spaced levels per channel, red varying
 * fastest, then green, then blue — the order of a `.cube` file's rows.
 */
export function buildToneMapLattice(size: number): { data: Buffer; width: number; height: number } {
  const count = size ** 3;
  const planes = { red: new Uint16Array(count), green: new Uint16Array(count), blue: new Uint16Array(count) };
  const level = (index: number) => Math.round((index / (size - 1)) * 0xffff);
  for (let index = 0; index < count; index += 1) {
    planes.red[index] = level(index % size);
    planes.green[index] = level(Math.floor(index / size) % size);
    planes.blue[index] = level(Math.floor(index / size ** 2));
  }
  const data = Buffer.concat(
    [planes.green, planes.blue, planes.red].map((plane) => Buffer.from(plane.buffer)),
  );
  return { data, width: size ** 2, height: size };
}

/** ffmpeg arguments that put the raw lattice picture through the exact chain, raw floats out. */
export function buildToneMapLatticeArgs(options: {
  dynamicRange: HdrRange;
  size: number;
  latticePath: string;
  outputPath: string;
}): string[] {
  const size = `${options.size ** 2}x${options.size}`;
  return [
    ...["-hide_banner", "-nostdin", "-v", "error", "-y"],
    ...["-f", "rawvideo", "-pix_fmt", "gbrp16le", "-s", size, "-i", options.latticePath],
    ...["-vf", exactToneMapChain(options.dynamicRange)],
    ...["-frames:v", "1", "-f", "rawvideo", options.outputPath],
  ];
}

/**
 * The `.cube` file (Adobe's 3D LUT format, which `lut3d` reads) for the lattice's mapped
 * colours: raw `gbrpf32le` planes, in the lattice's order. Values outside 0..1 are clipped per
 * channel, as a display clips them: a saturated BT.2020 colour lies outside BT.709, with negative
 * green or blue. (The per-frame chain carried those into the YUV conversion, which darkened a
 * BT.2020 red at 75% to 216 instead of 244.)
 */
export function formatToneMapCube(size: number, mappedPlanes: Buffer): string {
  const count = size ** 3;
  if (mappedPlanes.byteLength !== count * 3 * 4) {
    throw new Error(`Expected ${count * 3 * 4} bytes of mapped colours, got ${mappedPlanes.byteLength}`);
  }
  const floats = new Float32Array(count * 3);
  Buffer.from(floats.buffer).set(mappedPlanes);
  const channel = (value: number) => Math.min(1, Math.max(0, value)).toFixed(6);
  const rows = [`LUT_3D_SIZE ${size}`];
  for (let index = 0; index < count; index += 1) {
    const green = floats[index]!;
    const blue = floats[count + index]!;
    const red = floats[2 * count + index]!;
    rows.push(`${channel(red)} ${channel(green)} ${channel(blue)}`);
  }
  return `${rows.join("\n")}\n`;
}

/**
 * A filter chain from an HDR picture (BT.2020 YUV, any depth) to SDR BT.709 (8-bit 4:2:0,
 * limited range) through the LUT that buildToneMapLattice and formatToneMapCube made. The matrix
 * is named rather than read from the frames: phones tag HDR in the stream header, and a frame
 * without the tags would otherwise be read as BT.709. R'G'B' at 16 bits keeps a 10-bit source's
 * levels; tetrahedral interpolation follows the mapping's curve where trilinear blurs it.
 */
export function buildToneMapFilter(lutPath: string): string {
  return [
    "scale=in_color_matrix=bt2020",
    "format=gbrp16le",
    `lut3d=file=${escapeFilterValue(lutPath)}:interp=tetrahedral`,
    "scale=out_color_matrix=bt709:out_range=tv",
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
