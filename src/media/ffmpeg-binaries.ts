import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

export type MediaBinaries = {
  ffmpegPath: string;
  ffprobePath: string;
  /** Where they came from: the system (Debian's ffmpeg ≥ 5) or the npm-shipped static build. */
  source: "configured" | "system" | "npm";
  /** ffmpeg major version; the npm build (2018) is 4-ish and lacks `scdet`. */
  majorVersion: number;
};

let cached: MediaBinaries | undefined;

function majorVersionOf(ffmpegPath: string): number | undefined {
  try {
    const banner = execFileSync(ffmpegPath, ["-hide_banner", "-version"], {
      encoding: "utf8",
      timeout: 10_000,
    });
    const match = /ffmpeg version (?:n)?(\d+)\./.exec(banner);
    if (match) return Number(match[1]);
    // Static builds name a git revision (`N-47683-g0e8eb07980-static`): treat as old.
    return /ffmpeg version/.test(banner) ? 4 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The system's ffmpeg ≥ 5 when present (Debian's package: scdet, current astats), otherwise the
 * binaries that the @ffmpeg-installer / @ffprobe-installer npm packages ship, so a machine with
 * only Node, npm and Java still runs the engine.
 */
export function resolveMediaBinaries(
  configured: { ffmpegPath?: string; ffprobePath?: string } = {},
): MediaBinaries {
  if (configured.ffmpegPath && configured.ffprobePath) {
    const majorVersion = majorVersionOf(configured.ffmpegPath);
    if (majorVersion === undefined)
      throw new Error(`FFMPEG_PATH does not run ffmpeg: ${configured.ffmpegPath}`);
    return {
      ffmpegPath: configured.ffmpegPath,
      ffprobePath: configured.ffprobePath,
      source: "configured",
      majorVersion,
    };
  }
  if (cached) return cached;
  const systemMajor = majorVersionOf("ffmpeg");
  if (systemMajor !== undefined && systemMajor >= 5) {
    cached = { ffmpegPath: "ffmpeg", ffprobePath: "ffprobe", source: "system", majorVersion: systemMajor };
    return cached;
  }
  const require = createRequire(import.meta.url);
  const ffmpegPath = (require("@ffmpeg-installer/ffmpeg") as { path: string }).path;
  const ffprobePath = (require("@ffprobe-installer/ffprobe") as { path: string }).path;
  cached = { ffmpegPath, ffprobePath, source: "npm", majorVersion: majorVersionOf(ffmpegPath) ?? 4 };
  return cached;
}
