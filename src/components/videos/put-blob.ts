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
}): Promise<{ etag: string | null }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", options.url);
    for (const [name, value] of Object.entries(options.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => options.onProgress?.(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve({ etag: xhr.getResponseHeader("ETag") });
      else reject(new PutFailedError(xhr.status, storageMessage(xhr.status, xhr.responseText)));
    };
    xhr.onerror = () => reject(new PutFailedError(0, "The connection to storage was lost."));
    xhr.ontimeout = () => reject(new PutFailedError(0, "Storage stopped answering."));
    const abort = () => xhr.abort();
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    if (options.signal?.aborted) return reject(new DOMException("Upload cancelled", "AbortError"));
    options.signal?.addEventListener("abort", abort, { once: true });
    xhr.onloadend = () => options.signal?.removeEventListener("abort", abort);
    xhr.send(options.body);
  });
}

function storageMessage(status: number, body: string): string {
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1];
  if (status === 403) return `Storage refused the upload (${code ?? "forbidden"}).`;
  return `Storage answered ${status}${code ? ` (${code})` : ""}.`;
}
