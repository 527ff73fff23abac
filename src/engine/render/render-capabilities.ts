import { createInterface } from "node:readline";
import type { DynamicRange } from "@/media/dynamic-range";
import { runMedia } from "@/media/run-ffmpeg";
import { buildToneMapFilter, TONE_MAP_FILTERS } from "@/media/tone-map-args";
import { ensureToneMapLut } from "@/media/tone-map-lut";

/** What the ffmpeg at hand can do for a render; the npm fallback build differs from Debian's. */
export type RenderCapabilities = {
  /** The `subtitles` filter (libass), for burned-in captions. */
  subtitles: boolean;
  /** The `libwebp_anim` encoder, for animated WebP previews. */
  animatedWebp: boolean;
  loudnorm: boolean;
  /** zscale (zimg), tonemap and lut3d, to turn HDR sources into SDR. */
  toneMapping: boolean;
};

const cache = new Map<string, Promise<RenderCapabilities>>();

/** Asks ffmpeg once per binary for its filters and encoders. */
export function getRenderCapabilities(ffmpegPath: string): Promise<RenderCapabilities> {
  let capabilities = cache.get(ffmpegPath);
  if (!capabilities) {
    capabilities = detectCapabilities(ffmpegPath);
    capabilities.catch(() => cache.delete(ffmpegPath));
    cache.set(ffmpegPath, capabilities);
  }
  return capabilities;
}

/**
 * The HDR → SDR filters for a source of this range, when this ffmpeg has them: null for SDR,
 * and null for HDR on a build without zimg (its picture then passes as it is). Their LUT is
 * made in `directory` if it is not there yet. Renders and the Gemini proxy both ask here;
 * ffmpeg is asked about its filters only for HDR.
 */
export async function toneMapFilterFor(
  dynamicRange: DynamicRange,
  ffmpegPath: string,
  directory: string,
): Promise<string | null> {
  if (dynamicRange === "sdr" || !(await getRenderCapabilities(ffmpegPath)).toneMapping) return null;
  return buildToneMapFilter(await ensureToneMapLut(dynamicRange, ffmpegPath, directory));
}

async function detectCapabilities(ffmpegPath: string): Promise<RenderCapabilities> {
  const [filters, encoders] = await Promise.all([
    listFfmpegFilters(ffmpegPath),
    listNames(ffmpegPath, "-encoders"),
  ]);
  return {
    subtitles: filters.has("subtitles"),
    animatedWebp: encoders.has("libwebp_anim"),
    loudnorm: filters.has("loudnorm"),
    toneMapping: TONE_MAP_FILTERS.every((name) => filters.has(name)),
  };
}

/** The names of the filters this ffmpeg has (`ffmpeg -filters`). */
export function listFfmpegFilters(ffmpegPath: string): Promise<Set<string>> {
  return listNames(ffmpegPath, "-filters");
}

/** The second column of `ffmpeg -filters` / `-encoders` (flags, name, description). */
async function listNames(ffmpegPath: string, listOption: string): Promise<Set<string>> {
  const names = new Set<string>();
  await runMedia({
    binaryPath: ffmpegPath,
    args: ["-hide_banner", listOption],
    timeoutMs: 15_000,
    consumeStdout: async (stdout) => {
      for await (const line of createInterface({ input: stdout, crlfDelay: Number.POSITIVE_INFINITY })) {
        const name = /^\s*[A-Z.|]{3,6}\s+(\S+)\s/.exec(line)?.[1];
        if (name) names.add(name);
      }
    },
  });
  return names;
}
