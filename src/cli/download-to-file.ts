import { createWriteStream } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { IDLE_TIMEOUT_MS, openPublicUrl, parseImportUrl, UrlImportError } from "@/net/open-public-url";

/** Whole download limit: a long video on a slow line still gets there. */
export const DOWNLOAD_TIMEOUT_MS = 30 * 60 * 1000;
/** How often a progress line is written while bytes arrive (or fail to). */
export const DOWNLOAD_PROGRESS_INTERVAL_MS = 5 * 1000;

/**
 * Streams an http(s) URL to a file in `directory` (never held in memory), opened the way the
 * worker's import opens one (open-public-url.ts) but with private addresses allowed: the CLI runs
 * on the user's own machine and may fetch from their network. Writes a progress line every few
 * seconds, and fails when nothing arrives for `idleTimeoutMs` (a stalled server) or the whole
 * download takes longer than `timeoutMs`.
 */
export async function downloadToFile({
  url,
  directory,
  timeoutMs = DOWNLOAD_TIMEOUT_MS,
  idleTimeoutMs = IDLE_TIMEOUT_MS,
  progressIntervalMs = DOWNLOAD_PROGRESS_INTERVAL_MS,
  signal,
  log,
}: {
  url: string;
  directory: string;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  progressIntervalMs?: number;
  signal?: AbortSignal;
  log: (line: string) => void;
}): Promise<string> {
  const parsed = parseImportUrl(url);
  log(`Downloading ${parsed.origin}${parsed.pathname}…`);
  const timeout = AbortSignal.timeout(timeoutMs);
  const startedAt = performance.now();
  let receivedBytes = 0;
  let totalBytes: number | null = null;
  let lastChunkAt = startedAt;
  const progressTimer = setInterval(() => {
    const quietSeconds = Math.floor((performance.now() - lastChunkAt) / 1000);
    log(
      `Downloading: ${describeAmount(receivedBytes, totalBytes)}${quietSeconds >= 5 ? `, nothing received for ${quietSeconds} s` : ""}`,
    );
  }, progressIntervalMs);

  let target: string;
  try {
    const opened = await openPublicUrl({
      url,
      allowPrivateAddresses: true,
      idleTimeoutMs,
      signal: AbortSignal.any([timeout, ...(signal ? [signal] : [])]),
    });
    totalBytes = opened.contentLength;
    target = path.join(directory, localFileName(opened.finalUrl));
    await pipeline(
      opened.response,
      async function* countBytes(chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          receivedBytes += chunk.byteLength;
          lastChunkAt = performance.now();
          yield chunk;
        }
      },
      createWriteStream(target),
    );
  } catch (error) {
    if (error instanceof UrlImportError && error.kind === "timeout") {
      throw new Error(
        `The download stalled: the server sent nothing for ${formatSeconds(idleTimeoutMs)}, with ${describeAmount(receivedBytes, totalBytes)} received`,
        { cause: error },
      );
    }
    if (timeout.aborted && !signal?.aborted)
      throw new Error(`Downloading the video took longer than ${formatSeconds(timeoutMs)}`, { cause: error });
    throw error;
  } finally {
    clearInterval(progressTimer);
  }
  const seconds = (performance.now() - startedAt) / 1000;
  log(`Downloaded ${formatMegabytes(receivedBytes)} MB in ${Math.round(seconds * 10) / 10} s`);
  return target;
}

/** The last path segment (after redirects) as a safe file name: ffprobe takes its extension as a hint. */
function localFileName(url: URL): string {
  const name = path.basename(url.pathname).replace(/(?:%[0-9a-f]{2}|[^\w.-])+/gi, "_");
  return name.slice(-100) || "source";
}

function describeAmount(receivedBytes: number, totalBytes: number | null): string {
  if (!totalBytes) return `${formatMegabytes(receivedBytes)} MB`;
  const percent = Math.floor((receivedBytes / totalBytes) * 100);
  return `${formatMegabytes(receivedBytes)} of ${formatMegabytes(totalBytes)} MB (${percent}%)`;
}

function formatMegabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

function formatSeconds(milliseconds: number): string {
  return `${Math.round((milliseconds / 1000) * 10) / 10} s`;
}
