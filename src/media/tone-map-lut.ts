import { createHash } from "node:crypto";
import { access, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { runMedia } from "./run-ffmpeg";
import {
  buildToneMapLattice,
  buildToneMapLatticeArgs,
  formatToneMapCube,
  type HdrRange,
  TONE_MAP_LUT_SIZE,
} from "./tone-map-args";

/** Mapping the lattice takes ~0.1 s; a stalled ffmpeg is stopped long before a render's limit. */
const LATTICE_TIMEOUT_MS = 30_000;

/** LUTs being made in this process, by file, so concurrent renders make each one once. */
const making = new Map<string, Promise<void>>();

/**
 * The tone-mapping LUT for HDR sources of this range, as made by this ffmpeg's zscale and
 * tonemap, in `directory` (a worker's or a CLI run's own temporary directory, so it goes with
 * it). Made on first use and kept for every later render there; the name carries the range,
 * the lattice size, and a hash of the mapping and the ffmpeg that made it. Written under
 * a temporary name and renamed, so a reader never sees half a file.
 */
export async function ensureToneMapLut(
  dynamicRange: HdrRange,
  ffmpegPath: string,
  directory: string,
): Promise<string> {
  const args = buildToneMapLatticeArgs({
    dynamicRange,
    size: TONE_MAP_LUT_SIZE,
    latticePath: "lattice",
    outputPath: "mapped",
  });
  const version = createHash("sha256")
    .update(JSON.stringify([ffmpegPath, args]))
    .digest("hex")
    .slice(0, 12);
  const lutPath = path.join(directory, `truss-tone-map-${dynamicRange}-${TONE_MAP_LUT_SIZE}-${version}.cube`);
  if (await exists(lutPath)) return lutPath;
  let made = making.get(lutPath);
  if (!made) {
    made = makeToneMapLut(dynamicRange, ffmpegPath, lutPath).finally(() => making.delete(lutPath));
    making.set(lutPath, made);
  }
  await made;
  return lutPath;
}

async function makeToneMapLut(dynamicRange: HdrRange, ffmpegPath: string, lutPath: string): Promise<void> {
  const directory = path.dirname(lutPath);
  await mkdir(directory, { recursive: true });
  const work = await mkdtemp(path.join(directory, "truss-tone-map-work-"));
  try {
    const latticePath = path.join(work, "lattice.gbrp16le");
    const outputPath = path.join(work, "mapped.gbrpf32le");
    await writeFile(latticePath, buildToneMapLattice(TONE_MAP_LUT_SIZE).data);
    await runMedia({
      binaryPath: ffmpegPath,
      args: buildToneMapLatticeArgs({ dynamicRange, size: TONE_MAP_LUT_SIZE, latticePath, outputPath }),
      timeoutMs: LATTICE_TIMEOUT_MS,
    });
    const cubePath = path.join(work, "lut.cube");
    await writeFile(cubePath, formatToneMapCube(TONE_MAP_LUT_SIZE, await readFile(outputPath)));
    await rename(cubePath, lutPath);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function exists(filePath: string): Promise<boolean> {
  try {
    await access(filePath);
    return true;
  } catch {
    return false;
  }
}
