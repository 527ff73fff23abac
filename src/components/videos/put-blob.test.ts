import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PutFailedError, putBlob } from "./put-blob";

/** Just enough of XMLHttpRequest for putBlob: the test plays storage, sending nothing unless told. */
class SilentXhr {
  static last: SilentXhr | null = null;
  upload: { onprogress: ((event: { loaded: number }) => void) | null } = { onprogress: null };
  status = 0;
  responseText = "";
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  onloadend: (() => void) | null = null;
  onprogress: (() => void) | null = null;
  aborted = false;
  constructor() {
    SilentXhr.last = this;
  }
  open() {}
  setRequestHeader() {}
  getResponseHeader() {
    return '"etag-1"';
  }
  send() {}
  abort() {
    this.aborted = true;
    this.onabort?.();
    this.onloadend?.();
  }
  succeed() {
    this.status = 200;
    this.onload?.();
    this.onloadend?.();
  }
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal("XMLHttpRequest", SilentXhr);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const put = (options: { stallTimeoutMs?: number; signal?: AbortSignal } = {}) =>
  putBlob({ url: "https://storage.test/part", body: new Blob(["x"]), headers: {}, ...options });

describe("putBlob", () => {
  it("aborts a PUT that sends nothing for the stall window, with a retryable error saying why", async () => {
    const result = put();
    const settled = vi.fn();
    result.catch(settled);
    await vi.advanceTimersByTimeAsync(29_000);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(SilentXhr.last?.aborted).toBe(true);
    const error = await result.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PutFailedError);
    // Status 0, like a lost connection: the upload retries the part with backoff.
    expect(error).toMatchObject({
      status: 0,
      message: "The upload stalled: no data went through for 30 s. Check your connection and try again.",
    });
  });

  it("keeps a slow PUT going while bytes still move, and takes a shorter window when given", async () => {
    const result = put({ stallTimeoutMs: 2_000 });
    for (let loaded = 1; loaded <= 10; loaded++) {
      await vi.advanceTimersByTimeAsync(1_500);
      SilentXhr.last?.upload.onprogress?.({ loaded });
    }
    expect(SilentXhr.last?.aborted).toBe(false);
    SilentXhr.last?.succeed();
    await expect(result).resolves.toEqual({ etag: '"etag-1"' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(SilentXhr.last?.aborted).toBe(false);
  });

  it("still reports a cancel by the creator as a cancel, not a stall", async () => {
    const controller = new AbortController();
    const result = put({ signal: controller.signal });
    controller.abort();
    await expect(result).rejects.toMatchObject({ name: "AbortError" });
  });
});
