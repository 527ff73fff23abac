import { describe, expect, it } from "vitest";
import {
  fileIdentity,
  findRememberedUpload,
  forgetUpload,
  forgetVideo,
  type KeyValueStore,
  rememberUpload,
} from "./file-identity";

function memoryStore(): KeyValueStore & { raw: Map<string, string> } {
  const raw = new Map<string, string>();
  return {
    raw,
    getItem: (key) => raw.get(key) ?? null,
    setItem: (key, value) => void raw.set(key, value),
    removeItem: (key) => void raw.delete(key),
  };
}

describe("file identity", () => {
  const file = { name: "talk.mp4", size: 123_456_789, lastModified: 1_700_000_000_000 };

  it("finds the video of the same file again, and only of the same file", () => {
    const store = memoryStore();
    rememberUpload(store, fileIdentity(file), "vid_1");
    expect(findRememberedUpload(store, fileIdentity({ ...file }))).toBe("vid_1");
    expect(findRememberedUpload(store, fileIdentity({ ...file, size: file.size + 1 }))).toBeNull();
    expect(findRememberedUpload(store, fileIdentity({ ...file, lastModified: 1 }))).toBeNull();
  });

  it("forgets by file or by video, and old entries expire", () => {
    const store = memoryStore();
    const other = { ...file, name: "b.mp4" };
    rememberUpload(store, fileIdentity(file), "vid_1", 0);
    rememberUpload(store, fileIdentity(other), "vid_2", 0);
    forgetUpload(store, fileIdentity(file));
    expect(findRememberedUpload(store, fileIdentity(file), 0)).toBeNull();
    forgetVideo(store, "vid_2");
    expect(findRememberedUpload(store, fileIdentity(other), 0)).toBeNull();
    rememberUpload(store, fileIdentity(file), "vid_3", 0);
    expect(findRememberedUpload(store, fileIdentity(file), 8 * 24 * 3600_000)).toBeNull();
  });

  it("survives garbage in storage", () => {
    const store = memoryStore();
    store.setItem("truss.uploads.v1", "{not json");
    expect(findRememberedUpload(store, fileIdentity(file))).toBeNull();
    rememberUpload(store, fileIdentity(file), "vid_9");
    expect(findRememberedUpload(store, fileIdentity(file))).toBe("vid_9");
  });
});
