import { describe, expect, it } from "vitest";
import {
  clipsListKey,
  MAX_RESTORED_PAGES,
  savedClipsPagesOf,
  withSavedClipsPages,
} from "./clips-history-state";

const NEXT_STATE = { __NA: true, __PRIVATE_NEXTJS_INTERNALS_TREE: { tree: ["", {}] } };

describe("clips history state", () => {
  it("keeps Next's own fields when saving, and reads back what was saved for the same listing", () => {
    const list = clipsListKey("score", undefined);
    const state = withSavedClipsPages(NEXT_STATE, { list, pages: 2, scrollYPixels: 2400 });
    expect(state).toMatchObject(NEXT_STATE);
    expect(savedClipsPagesOf(state, list)).toEqual({ pages: 2, scrollYPixels: 2400 });
  });

  it("replaces an earlier save", () => {
    const list = clipsListKey("newest", undefined);
    const first = withSavedClipsPages(NEXT_STATE, { list, pages: 2, scrollYPixels: 100 });
    const second = withSavedClipsPages(first, { list, pages: 3, scrollYPixels: 900 });
    expect(savedClipsPagesOf(second, list)).toEqual({ pages: 3, scrollYPixels: 900 });
  });

  it("ignores a save of another listing (another order or minimum score)", () => {
    const state = withSavedClipsPages(NEXT_STATE, {
      list: clipsListKey("score", 80),
      pages: 3,
      scrollYPixels: 10,
    });
    expect(savedClipsPagesOf(state, clipsListKey("score", 60))).toBeNull();
    expect(savedClipsPagesOf(state, clipsListKey("newest", undefined))).toBeNull();
  });

  it("finds nothing in an entry without a save, or in no state at all", () => {
    const list = clipsListKey("newest", undefined);
    expect(savedClipsPagesOf(NEXT_STATE, list)).toBeNull();
    expect(savedClipsPagesOf(null, list)).toBeNull();
    expect(savedClipsPagesOf(undefined, list)).toBeNull();
    expect(withSavedClipsPages(null, { list, pages: 1, scrollYPixels: 0 })).toEqual({
      trussClipsPages: { list, pages: 1, scrollYPixels: 0 },
    });
  });

  it("bounds what a malformed or huge save asks for", () => {
    const list = clipsListKey("newest", undefined);
    const read = (saved: unknown) => savedClipsPagesOf({ trussClipsPages: saved }, list);
    expect(read({ list, pages: 10_000, scrollYPixels: 50 })).toEqual({
      pages: MAX_RESTORED_PAGES,
      scrollYPixels: 50,
    });
    expect(read({ list, pages: 0, scrollYPixels: -5 })).toEqual({ pages: 1, scrollYPixels: 0 });
    expect(read({ list, pages: 1.5, scrollYPixels: 0 })).toBeNull();
    expect(read({ list, pages: "2", scrollYPixels: 0 })).toBeNull();
    expect(read("2")).toBeNull();
  });
});
