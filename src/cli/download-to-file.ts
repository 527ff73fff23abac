import { createWriteStream } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";

/** Whole download limit: a long video on a slow line still gets there. */
export const DOWNLOAD_TIMEOUT_MS = 30 * 60 * 1000;
/** A server that sends nothing for this long has stalled: better to say so than to wait 30 min. */
export const DOWNLOAD_IDLE_TIMEOUT_MS = 60 * 1000;
/** How often a progress line is written while bytes arrive (or fail to). */
export const DOWNLOAD_PROGRESS_INTERVAL_MS = 5 * 1000;

/** Plain words for the network failures people meet; the code itself follows in brackets. */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: "the server refused the connection",
  ENOTFOUND: "no server has that name",
  EAI_AGAIN: "the server's name could not be looked up",
  ECONNRESET: "the server closed the connection",
  ETIMEDOUT: "the server did not answer",
  EHOSTUNREACH: "the server cannot be reached",
  ENETUNREACH: "the network cannot be reached",
};

/**
 * Streams an http(s) URL to a file in `directory` (never held in memory). Writes a progress line
 * every few seconds, fails when nothing arrives for `idleTimeoutMs` (a stalled server) or the
 * whole download takes longer than `timeoutMs`, and names the network's reason when fetch fails.
 */
export async function downloadToFile({
  url,
  directory,
  timeoutMs = DOWNLOAD_TIMEOUT_MS,
  idleTimeoutMs = DOWNLOAD_IDLE_TIMEOUT_MS,
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
  const parsed = new URL(url);
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new Error("Only http(s) URLs can be downloaded");
  const name = path.basename(decodeURIComponent(parsed.pathname)).replace(/[^\w.-]+/g, "_") || "source";
  const target = path.join(directory, name.length > 100 ? name.slice(-100) : name);
  log(`Downloading ${parsed.origin}${parsed.pathname}…`);

  const timeout = AbortSignal.timeout(timeoutMs);
  // Rearmed by every chunk: fires only when the server has gone quiet, headers included.
  const idle = new AbortController();
  const idleTimer = setTimeout(() => idle.abort(), idleTimeoutMs);
  const combined = AbortSignal.any([timeout, idle.signal, ...(signal ? [signal] : [])]);
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
  /** Why the download stopped, when it was one of our limits rather than the network. */
  const limitReached = () => {
    if (idle.signal.aborted) {
      return new Error(
        `The download stalled: the server sent nothing for ${formatSeconds(idleTimeoutMs)}, with ${describeAmount(receivedBytes, totalBytes)} received`,
      );
    }
    if (timeout.aborted)
      return new Error(`Downloading the video took longer than ${formatSeconds(timeoutMs)}`);
    return null;
  };

  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: combined, redirect: "follow" });
    } catch (error) {
      throw (
        limitReached() ??
        new Error(`The video could not be downloaded: ${describeFetchFailure(error)}`, { cause: error })
      );
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(
        `The video could not be downloaded: HTTP ${response.status} ${response.statusText}`.trim(),
      );
    }
    const length = Number(response.headers.get("content-length"));
    totalBytes = Number.isFinite(length) && length > 0 ? length : null;
    lastChunkAt = performance.now();
    idleTimer.refresh();

    try {
      await pipeline(
        Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
        async function* countBytes(chunks: AsyncIterable<Uint8Array>) {
          for await (const chunk of chunks) {
            receivedBytes += chunk.byteLength;
            lastChunkAt = performance.now();
            idleTimer.refresh();
            yield chunk;
          }
        },
        createWriteStream(target),
      );
    } catch (error) {
      throw (
        limitReached() ??
        new Error(`The download was interrupted: ${describeFetchFailure(error)}`, { cause: error })
      );
    }
  } finally {
    clearTimeout(idleTimer);
    clearInterval(progressTimer);
  }
  const seconds = (performance.now() - startedAt) / 1000;
  log(`Downloaded ${formatMegabytes(receivedBytes)} MB in ${Math.round(seconds * 10) / 10} s`);
  return target;
}

/** "fetch failed" says nothing: the reason is in its cause (one error, or one per address tried). */
export function describeFetchFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error ? error.cause : undefined;
  const causes = cause instanceof AggregateError ? cause.errors : cause ? [cause] : [];
  const details = causes
    .filter((item): item is NodeJS.ErrnoException => item instanceof Error)
    .map((item) => {
      const words = item.code ? NETWORK_FAILURES[item.code] : undefined;
      const detail = item.message || item.code || item.name;
      return words ? `${words} (${detail})` : detail;
    });
  if (details.length === 0) return message;
  return [...new Set(details)].join("; ");
}

function describeAmount(receivedBytes: number, totalBytes: number | null): string {
  if (totalBytes === null) return `${formatMegabytes(receivedBytes)} MB`;
  const percent = Math.floor((receivedBytes / totalBytes) * 100);
  return `${formatMegabytes(receivedBytes)} of ${formatMegabytes(totalBytes)} MB (${percent}%)`;
}

function formatMegabytes(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}

function formatSeconds(milliseconds: number): string {
  return `${Math.round((milliseconds / 1000) * 10) / 10} s`;
}
