import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HDR_TRANSFER_NAMES } from "./dynamic-range";
import { resolveMediaBinaries } from "./ffmpeg-binaries";
import { runMedia } from "./run-ffmpeg";
import { buildToneMapFilter, type HdrRange, TONE_MAP_LUT_SIZE } from "./tone-map-args";
import { ensureToneMapLut } from "./tone-map-lut";

const { ffmpegPath } = resolveMediaBinaries();
const FRAME = { width: 320, height: 180 };

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), "truss-tone-map-test-"));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/**
 * One HDR frame of smooth, natural colours (skin, sky, foliage, cream), 10-bit BT.2020 in the
 * range's transfer, converted from SDR the way zimg maps SDR into HDR.
 */
function naturalHdrFrame(dynamicRange: HdrRange): string {
  return (
    `gradients=s=${FRAME.width}x${FRAME.height}:c0=0xd08a6a:c1=0x2050a0:c2=0x40a040:c3=0xf0e0c0:nb_colors=4:seed=7:d=1:r=1,` +
    "format=yuv420p,setparams=color_primaries=bt709:color_trc=bt709:colorspace=bt709:range=tv," +
    "zscale=t=linear,format=gbrpf32le," +
    `zscale=p=bt2020:t=${HDR_TRANSFER_NAMES[dynamicRange]}:m=bt2020nc:r=tv,format=yuv420p10le`
  );
}

/** A lavfi source's first frame through `filter`, raw. */
async function firstFrameThrough(source: string, filter: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await runMedia({
    binaryPath: ffmpegPath,
    args: [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      source,
      "-vf",
      filter,
      "-frames:v",
      "1",
      "-f",
      "rawvideo",
      "-",
    ],
    timeoutMs: 20_000,
    consumeStdout: async (stdout) => {
      for await (const chunk of stdout) chunks.push(chunk as Buffer);
    },
  });
  return Buffer.concat(chunks);
}

/** The chain renders ran on every frame before the LUT: the reference the LUT must match. */
function exactChainPerFrame(dynamicRange: HdrRange): string {
  return [
    `zscale=tin=${HDR_TRANSFER_NAMES[dynamicRange]}:pin=bt2020:min=bt2020nc:t=linear:p=bt709:npl=100`,
    "format=gbrpf32le",
    "tonemap=tonemap=mobius:desat=0",
    "zscale=t=bt709:m=bt709:r=tv",
    "format=yuv420p",
  ].join(",");
}

function compare(expected: Buffer, actual: Buffer) {
  expect(actual.byteLength).toBe(expected.byteLength);
  let largest = 0;
  let withinTwoLevels = 0;
  let squaredErrors = 0;
  for (let index = 0; index < expected.byteLength; index += 1) {
    const difference = Math.abs(expected[index]! - actual[index]!);
    largest = Math.max(largest, difference);
    if (difference <= 2) withinTwoLevels += 1;
    squaredErrors += difference ** 2;
  }
  return {
    largest,
    shareWithinTwoLevels: withinTwoLevels / expected.byteLength,
    psnr: 10 * Math.log10(255 ** 2 / (squaredErrors / expected.byteLength)),
  };
}

describe("ensureToneMapLut with a real ffmpeg", () => {
  it.each(["hlg", "pq"] as const)(
    "makes a %s LUT whose frames match the exact chain's within two levels",
    async (dynamicRange) => {
      const lutPath = await ensureToneMapLut(dynamicRange, ffmpegPath, directory);
      expect(path.dirname(lutPath)).toBe(directory);
      expect((await readFile(lutPath, "utf8")).split("\n")[0]).toBe(`LUT_3D_SIZE ${TONE_MAP_LUT_SIZE}`);

      const source = naturalHdrFrame(dynamicRange);
      const exact = await firstFrameThrough(source, exactChainPerFrame(dynamicRange));
      const throughLut = await firstFrameThrough(source, buildToneMapFilter(lutPath));
      // Measured: 50–51 dB, at most 5 (HLG) or 7 (PQ) levels apart, 99.2–99.4% within two. The
      // frame read as SDR is 16–18 dB away; with the matrix read as BT.709 45–47 dB and 95–96%
      // within two; through a LUT with red and blue swapped 21 dB.
      const match = compare(exact, throughLut);
      expect(match.psnr).toBeGreaterThan(48);
      expect(match.largest).toBeLessThanOrEqual(8);
      expect(match.shareWithinTwoLevels).toBeGreaterThan(0.985);
    },
    60_000,
  );

  it("keeps a saturated BT.2020 red bright, clipped in RGB where BT.709 cannot show it", async () => {
    const lutPath = await ensureToneMapLut("hlg", ffmpegPath, directory);
    // Red at 75% of HLG's signal in BT.2020 primaries: outside BT.709, so its green and blue come
    // out negative. The per-frame chain carried them into the YUV conversion, which darkened the
    // red to 216; clipped per channel it stays at 244.
    const source =
      "color=c=0xc00000:s=64x64:d=1:r=1,format=yuv420p,scale=out_color_matrix=bt2020,format=yuv420p10le";
    const toRgb = "scale=in_color_matrix=bt709:in_range=tv,format=rgb24";
    const [red, green, blue] = await firstFrameThrough(source, `${buildToneMapFilter(lutPath)},${toRgb}`);
    expect(red).toBeGreaterThanOrEqual(235);
    expect(Math.max(green!, blue!)).toBeLessThanOrEqual(10);
    const [exactRed] = await firstFrameThrough(source, `${exactChainPerFrame("hlg")},${toRgb}`);
    expect(exactRed).toBeLessThan(red! - 15);
  }, 60_000);

  it("makes each LUT once, however many renders ask at the same time, and leaves no work files", async () => {
    const own = await mkdtemp(path.join(os.tmpdir(), "truss-tone-map-test-"));
    try {
      const paths = await Promise.all([1, 2, 3].map(() => ensureToneMapLut("hlg", ffmpegPath, own)));
      expect(new Set(paths).size).toBe(1);
      expect(await readdir(own)).toEqual([path.basename(paths[0]!)]);
      const made = await stat(paths[0]!);
      expect(await ensureToneMapLut("hlg", ffmpegPath, own)).toBe(paths[0]);
      expect((await stat(paths[0]!)).mtimeMs).toBe(made.mtimeMs);
      // Removed (a temporary directory cleaned), it is made again.
      await rm(paths[0]!);
      expect(await ensureToneMapLut("hlg", ffmpegPath, own)).toBe(paths[0]);
      expect((await stat(paths[0]!)).size).toBe(made.size);
      // A PQ LUT is another file.
      expect(await ensureToneMapLut("pq", ffmpegPath, own)).not.toBe(paths[0]);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  }, 60_000);
});
