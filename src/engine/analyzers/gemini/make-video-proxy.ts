import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { toneMapFilterFor } from "@/engine/render/render-capabilities";
import type { MediaProbe } from "@/engine/types";
import { formatSizeOverLimit } from "@/lib/format-bytes";
import type { MediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";
import { buildProxyArgs } from "./build-proxy-args";
import { GeminiVideoPreparationError } from "./describe-gemini-failure";

/**
 * Makes the low-resolution proxy (see build-proxy-args.ts) in a temporary directory, reads it
 * into memory when it is within `maxBytes`, and removes the directory either way.
 */
export async function makeVideoProxy(options: {
  sourcePath: string;
  probe: MediaProbe;
  framesPerSecond: number;
  maxBytes: number;
  binaries: MediaBinaries;
  signal?: AbortSignal;
}): Promise<Uint8Array> {
  const { sourcePath, probe, framesPerSecond, maxBytes, binaries, signal } = options;
  if (!probe.hasVideo && !probe.hasAudio) {
    throw new GeminiVideoPreparationError("The source has neither video nor audio to send to Gemini");
  }
  const directory = await mkdtemp(path.join(os.tmpdir(), "truss-gemini-proxy-"));
  try {
    const outputPath = path.join(directory, "proxy.mp4");
    await runMedia({
      binaryPath: binaries.ffmpegPath,
      args: buildProxyArgs({
        sourcePath,
        outputPath,
        hasVideo: probe.hasVideo,
        hasAudio: probe.hasAudio,
        framesPerSecond,
        // Gemini judges what a viewer would see: an HDR picture read as SDR is grey.
        toneMapFilter: await toneMapFilterFor(probe.dynamicRange, binaries.ffmpegPath, directory),
      }),
      // The whole source is decoded once; allow half its duration (a slow 2-core decode of
      // 1080p runs several times faster than real time) and at least two minutes.
      timeoutMs: Math.max(120_000, Math.ceil(probe.durationSeconds * 500)),
      signal,
    });
    const { size } = await stat(outputPath);
    if (size > maxBytes) {
      const over = formatSizeOverLimit(size, maxBytes);
      throw new GeminiVideoPreparationError(
        `The video is too long to send to Gemini inline (its proxy is ${over.size}, the limit ${over.limit})`,
      );
    }
    return await readFile(outputPath);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
