/**
 * Remembers which video an upload of a file belongs to, so picking the same file again after a
 * reload (or a lost connection) resumes that upload instead of starting over. A file is known
 * by name, size and modification time — all a page can see without reading it.
 */
export type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

const STORAGE_KEY = "truss.uploads.v1";
/** Remembered uploads older than this are forgotten (the server deletes abandoned ones anyway). */
const MAX_AGE_MS = 7 * 24 * 3600_000;

type Remembered = Record<string, { videoId: string; savedAt: number }>;

export function fileIdentity(file: Pick<File, "name" | "size" | "lastModified">): string {
  return `${file.name}\u0000${file.size}\u0000${file.lastModified}`;
}

function read(store: KeyValueStore): Remembered {
  try {
    const parsed = JSON.parse(store.getItem(STORAGE_KEY) ?? "{}") as unknown;
    return parsed && typeof parsed === "object" ? (parsed as Remembered) : {};
  } catch {
    return {};
  }
}

function write(store: KeyValueStore, remembered: Remembered): void {
  try {
    store.setItem(STORAGE_KEY, JSON.stringify(remembered));
  } catch {
    // Storage full or disabled (private mode): resuming is a convenience, uploads still work.
  }
}

export function rememberUpload(
  store: KeyValueStore,
  identity: string,
  videoId: string,
  nowMs = Date.now(),
): void {
  const remembered = read(store);
  for (const [key, entry] of Object.entries(remembered)) {
    if (nowMs - entry.savedAt > MAX_AGE_MS) delete remembered[key];
  }
  remembered[identity] = { videoId, savedAt: nowMs };
  write(store, remembered);
}

export function findRememberedUpload(
  store: KeyValueStore,
  identity: string,
  nowMs = Date.now(),
): string | null {
  const entry = read(store)[identity];
  return entry && nowMs - entry.savedAt <= MAX_AGE_MS ? entry.videoId : null;
}

export function forgetUpload(store: KeyValueStore, identity: string): void {
  const remembered = read(store);
  delete remembered[identity];
  write(store, remembered);
}

/** Forgets whatever file was remembered for this video (after a delete from the library). */
export function forgetVideo(store: KeyValueStore, videoId: string): void {
  const remembered = read(store);
  for (const [key, entry] of Object.entries(remembered))
    if (entry.videoId === videoId) delete remembered[key];
  write(store, remembered);
}

/** The browser's localStorage, or a throwaway map where there is none. */
export function browserStore(): KeyValueStore {
  if (typeof window !== "undefined" && window.localStorage) return window.localStorage;
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}
