import { describe, expect, it, vi } from "vitest";
import { createMediaUrlRefresher } from "./media-url-refresher";

describe("createMediaUrlRefresher", () => {
  it("answers the page URL's failure with a fresh URL, and a fresh URL's failure with the format problem", async () => {
    const refresher = createMediaUrlRefresher();
    const fetchFreshUrl = vi.fn(async () => "https://storage.test/source?X-Amz-Date=2");
    expect(await refresher.failed(fetchFreshUrl)).toEqual({
      kind: "retry",
      url: "https://storage.test/source?X-Amz-Date=2",
    });
    // The fresh URL fails before it ever loads: expiry was not the problem, the file is.
    expect(await refresher.failed(fetchFreshUrl)).toEqual({ kind: "unplayable" });
    expect(fetchFreshUrl).toHaveBeenCalledTimes(1);
  });

  it("refreshes again each time a URL that loaded expires later on", async () => {
    const refresher = createMediaUrlRefresher();
    let signed = 0;
    const fetchFreshUrl = async () => `https://storage.test/source?X-Amz-Date=${++signed}`;
    refresher.loaded();
    expect(await refresher.failed(fetchFreshUrl)).toEqual({
      kind: "retry",
      url: expect.stringContaining("=1"),
    });
    refresher.loaded();
    expect(await refresher.failed(fetchFreshUrl)).toEqual({
      kind: "retry",
      url: expect.stringContaining("=2"),
    });
  });

  it("reports the source unavailable when no fresh URL can be had", async () => {
    const offline = createMediaUrlRefresher();
    expect(await offline.failed(() => Promise.reject(new TypeError("Failed to fetch")))).toEqual({
      kind: "unavailable",
    });
    const notRendered = createMediaUrlRefresher();
    expect(await notRendered.failed(async () => null)).toEqual({ kind: "unavailable" });
  });
});
