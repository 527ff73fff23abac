import type { ClipOptions } from "@/engine/clip-options";
import {
  extensionOf,
  formatForContentType,
  formatForExtension,
} from "@/server/videos/accepted-video-formats";
import {
  browserStore,
  fileIdentity,
  findRememberedUpload,
  forgetUpload,
  type KeyValueStore,
  rememberUpload,
} from "./file-identity";
import { createProgressMeter, type ProgressReading } from "./progress-meter";
import { putBlob as defaultPutBlob, PutFailedError } from "./put-blob";
import { refuseChosenFile, toUploadFailure, type UploadFailure } from "./upload-failure";
import { ApiError, type SignedPart, videoApi } from "./video-api";

/**
 * Uploads one file the way the API expects (docs/api.md): create (or resume) → PUT the bytes
 * straight to storage → complete. Multipart uploads send `concurrency` parts at a time, retry a
 * failed part with backoff (re-signing it when its URL was refused or expired), report each
 * stored part so a reload can resume, and skip parts already stored when resuming.
 */
export type UploadPhase = "preparing" | "uploading" | "completing" | "done" | "failed" | "cancelled";

/**
 * The upload is under way (creating the video, sending bytes, completing): it can be cancelled,
 * and leaving the page would stop it halfway.
 */
export function isRunning(phase: UploadPhase): boolean {
  return phase === "preparing" || phase === "uploading" || phase === "completing";
}

export type UploadSnapshot = ProgressReading & {
  phase: UploadPhase;
  videoId: string | null;
  /** How the bytes go: in parts, or in one PUT (null until the server has said). */
  sentInParts: boolean | null;
  /** Parts found already stored when this upload resumed (a one-PUT file found stored is 1). */
  resumedParts: number;
  /** Set once the upload failed. */
  failure: UploadFailure | null;
};

export type UploadFileOptions = {
  file: File;
  /** The clips asked for; a resumed upload keeps those it was created with. */
  clipOptions?: ClipOptions;
  signal: AbortSignal;
  onSnapshot: (snapshot: UploadSnapshot) => void;
  concurrency?: number;
  maxAttempts?: number;
  store?: KeyValueStore;
  putBlob?: typeof defaultPutBlob;
};

const DEFAULT_CONCURRENCY = 4;
const DEFAULT_MAX_ATTEMPTS = 5;

/**
 * The content type to declare: the browser's when it names a video we take, else the one the
 * extension implies. Browsers take the type from the operating system, which often has none
 * for .mkv and may call a .ts file a Qt translation or TypeScript source. The server checks
 * the declaration, and ffprobe the stored bytes.
 */
export function declaredContentType(file: Pick<File, "name" | "type">): string {
  if (formatForContentType(file.type)) return file.type;
  return (
    formatForExtension(extensionOf(file.name))?.contentTypes[0] || file.type || "application/octet-stream"
  );
}

export async function uploadFile(options: UploadFileOptions): Promise<{ videoId: string }> {
  const { file, signal, onSnapshot } = options;
  const store = options.store ?? browserStore();
  const put = options.putBlob ?? defaultPutBlob;
  const identity = fileIdentity(file);
  let videoId: string | null = null;
  let resumedParts = 0;
  let sentInParts: boolean | null = null;
  const meter = createProgressMeter({ totalBytes: file.size });
  let reading = meter.read(Date.now());
  let phase: UploadPhase = "preparing";
  const emit = (failure: UploadFailure | null = null) =>
    onSnapshot({ ...reading, phase, videoId, sentInParts, resumedParts, failure });
  emit();

  try {
    const refusal = refuseChosenFile(file);
    if (refusal) throw refusal;
    // Resume what this browser started for the same file, if the server still waits for it.
    const remembered = findRememberedUpload(store, identity);
    let plan:
      | Awaited<ReturnType<typeof videoApi.resumeUpload>>["upload"]
      | Awaited<ReturnType<typeof videoApi.createUpload>>["upload"]
      | null = null;
    if (remembered) {
      try {
        const resumed = await videoApi.resumeUpload(remembered, signal);
        videoId = resumed.video.id;
        plan = resumed.upload;
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status !== 404 && error.status !== 409)) throw error;
        forgetUpload(store, identity);
      }
    }
    if (!plan) {
      // Not dropped when cancelled: the server may have created the video already, and only
      // its answer names it. Cancelled meanwhile, the video is deleted at once, not left in the
      // library as "uploading" for the day until the sweep removes it.
      const created = await videoApi.createUpload({
        filename: file.name,
        contentType: declaredContentType(file),
        sizeBytes: file.size,
        clipOptions: options.clipOptions,
      });
      if (signal.aborted) {
        await videoApi.remove(created.video.id).catch(() => {});
        signal.throwIfAborted();
      }
      videoId = created.video.id;
      plan = created.upload;
      rememberUpload(store, identity, videoId);
      // Named at once, not at the first byte sent: a cancel while the first PUT still fails and
      // retries must know which video to delete.
      emit();
    }
    const id = videoId as string;
    phase = "uploading";
    sentInParts = plan.kind === "multipart";

    let completionParts: { partNumber: number; etag: string }[] | undefined;
    if (plan.kind === "single" && "stored" in plan && plan.stored) {
      // Stored before the page reloaded or lost the answer: only the completion is left.
      resumedParts = 1;
      reading = meter.update(file.size, Date.now());
      emit();
    } else if (plan.kind === "single") {
      let url = plan.url;
      let headers = plan.headers;
      await withRetries(
        options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        signal,
        async (_attempt, previousError) => {
          if (isRefusal(previousError)) {
            const fresh = await videoApi.resumeUpload(id, signal);
            if (fresh.upload.kind === "single") ({ url, headers } = fresh.upload);
          }
          await put({
            url,
            body: file,
            headers,
            signal,
            onProgress: (loaded) => {
              reading = meter.update(loaded, Date.now());
              emit();
            },
          }).catch((error: unknown) => {
            // The URL only creates (If-None-Match: *): the file is there already, stored by an
            // attempt whose answer was lost or by this page before a reload. Completing checks it.
            if (!(error instanceof PutFailedError && error.status === 412)) throw error;
          });
        },
      );
    } else {
      const stored = "storedParts" in plan ? plan.storedParts : [];
      resumedParts = stored.length;
      const etags = new Map(stored.map((part) => [part.partNumber, part.etag]));
      const { partSizeBytes, partCount } = plan;
      const sizeOf = (partNumber: number) =>
        Math.min(file.size, partNumber * partSizeBytes) - (partNumber - 1) * partSizeBytes;
      let storedBytes = [...etags.keys()].reduce((sum, partNumber) => sum + sizeOf(partNumber), 0);
      reading = meter.update(storedBytes, Date.now());
      emit();

      const stopParts = new AbortController();
      const partSignal = AbortSignal.any([signal, stopParts.signal]);
      const urls = new Map<number, SignedPart>(plan.parts.map((part) => [part.partNumber, part]));
      const pending: number[] = [];
      for (let partNumber = 1; partNumber <= partCount; partNumber++)
        if (!etags.has(partNumber)) pending.push(partNumber);
      const inFlight = new Map<number, number>();
      const report = () => {
        const loaded = storedBytes + [...inFlight.values()].reduce((sum, bytes) => sum + bytes, 0);
        reading = meter.update(loaded, Date.now());
        emit();
      };
      const urlFor = async (partNumber: number, refresh: boolean): Promise<SignedPart> => {
        const cached = urls.get(partNumber);
        if (cached && !refresh && Date.parse(cached.expiresAt) - Date.now() > 60_000) return cached;
        // Sign this part and the next few waiting ones in one request.
        const batch = [partNumber, ...pending.filter((n) => !urls.has(n)).slice(0, 19)];
        const { parts } = await videoApi.signParts(id, batch, partSignal);
        for (const part of parts) urls.set(part.partNumber, part);
        const signed = urls.get(partNumber);
        if (!signed) throw new Error(`No URL for part ${partNumber}`);
        return signed;
      };

      const sendPart = async (partNumber: number) => {
        const start = (partNumber - 1) * partSizeBytes;
        const body = file.slice(start, start + sizeOf(partNumber));
        await withRetries(
          options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
          partSignal,
          async (_attempt, previousError) => {
            inFlight.set(partNumber, 0);
            const part = await urlFor(partNumber, isRefusal(previousError));
            const { etag } = await put({
              url: part.url,
              body,
              headers: part.headers,
              signal: partSignal,
              onProgress: (loaded) => {
                inFlight.set(partNumber, loaded);
                report();
              },
            });
            if (!etag)
              throw new PutFailedError(
                0,
                "Storage did not return the part's ETag (check the bucket's CORS rule).",
              );
            etags.set(partNumber, etag);
            inFlight.delete(partNumber);
            storedBytes += sizeOf(partNumber);
            report();
            // Best effort: a missed report only means this part is sent again after a reload.
            await videoApi.recordPart(id, partNumber, etag, partSignal).catch((error: unknown) => {
              if (partSignal.aborted) throw error;
            });
          },
        ).finally(() => inFlight.delete(partNumber));
      };

      const workers = Array.from(
        { length: Math.min(options.concurrency ?? DEFAULT_CONCURRENCY, pending.length) },
        async () => {
          try {
            for (let next = pending.shift(); next !== undefined; next = pending.shift()) await sendPart(next);
          } catch (error) {
            // One part gave up: stop the others instead of sending parts nobody will complete.
            stopParts.abort();
            throw error;
          }
        },
      );
      const results = await Promise.allSettled(workers);
      const failure = results.find((result) => result.status === "rejected" && !isAbort(result.reason));
      if (failure?.status === "rejected") throw failure.reason;
      signal.throwIfAborted();
      completionParts = [...etags]
        .map(([partNumber, etag]) => ({ partNumber, etag }))
        .sort((a, b) => a.partNumber - b.partNumber);
    }

    phase = "completing";
    emit();
    await withRetries(3, signal, () => videoApi.complete(id, completionParts, signal));
    forgetUpload(store, identity);
    phase = "done";
    reading = meter.update(file.size, Date.now());
    emit();
    return { videoId: id };
  } catch (error) {
    if (signal.aborted) {
      phase = "cancelled";
      emit();
    } else {
      phase = "failed";
      emit(toUploadFailure(error));
    }
    throw error;
  }
}

/** Storage refused the signature (expired or replaced URL): sign again before retrying. */
function isRefusal(error: unknown): boolean {
  return error instanceof PutFailedError && error.status === 403;
}

/** Retries transient failures (network, 5xx, refused URL) with backoff: 1 s, 2 s, 4 s, 8 s… */
async function withRetries<T>(
  maxAttempts: number,
  signal: AbortSignal,
  run: (attempt: number, previousError: unknown) => Promise<T>,
): Promise<T> {
  let previousError: unknown;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt, previousError);
    } catch (error) {
      previousError = error;
      if (signal.aborted || attempt >= maxAttempts || !isTransient(error)) throw error;
      await sleep(Math.min(30_000, 1000 * 2 ** (attempt - 1)), signal);
    }
  }
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

function isTransient(error: unknown): boolean {
  if (error instanceof PutFailedError)
    return error.status === 0 || error.status === 403 || error.status >= 500;
  if (error instanceof ApiError) return error.status === 0 || error.status === 429 || error.status >= 500;
  return false;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(new DOMException("Upload cancelled", "AbortError"));
      },
      { once: true },
    );
  });
}
