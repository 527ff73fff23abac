import { stallMessage, startStallWatchdog } from "./stall-watchdog";

/**
 * PUTs a file (or a slice of one) to a presigned URL with upload progress, which `fetch` cannot
 * report; resolves with the response's ETag. XMLHttpRequest streams the Blob from disk: the
 * page never reads the file into memory.
 */
export class PutFailedError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "PutFailedError";
  }
}

export function putBlob(options: {
  url: string;
  body: Blob;
  headers: Record<string, string>;
  signal?: AbortSignal;
  onProgress?: (loadedBytes: number) => void;
  /**
   * Abort when no data went through for this long. The rejection has status 0, like a lost
   * connection, so the caller retries it; without this a connection that stays open but sends
   * nothing would keep the upload "uploading" forever.
   */
  stallTimeoutMs?: number;
}): Promise<{ etag: string | null }> {
  const stallTimeoutMs = options.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new DOMException("Upload cancelled", "AbortError"));
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", options.url);
    for (const [name, value] of Object.entries(options.headers)) xhr.setRequestHeader(name, value);
    let stalled = false;
    const watchdog = startStallWatchdog({
      stallMs: stallTimeoutMs,
      onStall: () => {
        stalled = true;
        xhr.abort();
      },
    });
    xhr.upload.onprogress = (event) => {
      watchdog.progress();
      options.onProgress?.(event.loaded);
    };
    // Response bytes count too: storage may still be answering after the body went out.
    xhr.onprogress = () => watchdog.progress();
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve({ etag: xhr.getResponseHeader("ETag") });
      else reject(new PutFailedError(xhr.status, storageMessage(xhr.status, xhr.responseText)));
    };
    xhr.onerror = () => reject(new PutFailedError(0, "The connection to storage was lost."));
    const abort = () => xhr.abort();
    xhr.onabort = () =>
      reject(
        stalled
          ? new PutFailedError(0, stallMessage(stallTimeoutMs))
          : new DOMException("Upload cancelled", "AbortError"),
      );
    options.signal?.addEventListener("abort", abort, { once: true });
    xhr.onloadend = () => {
      watchdog.stop();
      options.signal?.removeEventListener("abort", abort);
    };
    xhr.send(options.body);
  });
}

const DEFAULT_STALL_TIMEOUT_MS = 30_000;

function storageMessage(status: number, body: string): string {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (status === 403) return `Storage refused the upload (${code ?? "forbidden"}).`;
  return `Storage answered ${status}${code ? ` (${code})` : ""}.`;
}
