"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ClipOptions } from "@/engine/clip-options";
import { browserStore, forgetVideo } from "./file-identity";
import { isRunning, type UploadSnapshot, uploadFile } from "./upload-file";
import { videoApi } from "./video-api";
import type { UploadHere } from "./video-standing";

/** One file the creator picked, and where its upload stands. */
export type UploadEntry = { key: string; file: File; clipOptions: ClipOptions; snapshot: UploadSnapshot };

const initialSnapshot = (file: File): UploadSnapshot => ({
  phase: "preparing",
  videoId: null,
  sentInParts: null,
  resumedParts: 0,
  failure: null,
  loadedBytes: 0,
  totalBytes: file.size,
  fraction: 0,
  bytesPerSecond: 0,
  secondsLeft: null,
});

/**
 * This tab's uploads by the video whose bytes they send (or sent: a finished one stays until the
 * video moves on). A failed upload sends nothing until Retry: its video reads as interrupted.
 */
function uploadsByVideoOf(entries: readonly UploadEntry[]): Map<string, UploadHere> {
  return new Map(
    entries
      .filter((entry) => entry.snapshot.phase !== "failed")
      .flatMap(({ file, snapshot }) =>
        snapshot.videoId ? [[snapshot.videoId, { snapshot, fileSize: file.size }] as const] : [],
      ),
  );
}

export type Uploads = ReturnType<typeof useUploadsState>;

/**
 * The uploads of this tab: several at once, each with its own progress, cancel and retry. Held
 * by UploadsProvider in the app's layout, so they carry on (and stay in view) while the creator
 * moves between pages. `subscribe` tells a page when an upload creates or completes a video, so
 * its list can refresh at once instead of at its next poll.
 */
export function useUploadsState() {
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  // The callbacks read the newest entries without changing with them.
  const entriesRef = useRef(entries);
  entriesRef.current = entries;
  const controllers = useRef(new Map<string, AbortController>());
  const counter = useRef(0);
  const listeners = useRef(new Set<() => void>());

  const videoChanged = useCallback(() => {
    for (const listener of listeners.current) listener();
  }, []);

  const subscribe = useCallback((listener: () => void) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const update = useCallback((key: string, snapshot: UploadSnapshot) => {
    setEntries((current) => current.map((entry) => (entry.key === key ? { ...entry, snapshot } : entry)));
  }, []);

  const run = useCallback(
    (key: string, file: File, clipOptions: ClipOptions) => {
      const controller = new AbortController();
      controllers.current.set(key, controller);
      let announced = false;
      uploadFile({
        file,
        clipOptions,
        signal: controller.signal,
        onSnapshot: (snapshot) => {
          update(key, snapshot);
          if (!announced && snapshot.videoId) {
            announced = true;
            videoChanged();
          }
          if (snapshot.phase === "done") videoChanged();
        },
      })
        .catch(() => {
          // The snapshot already says what went wrong.
        })
        .finally(() => {
          if (controllers.current.get(key) === controller) controllers.current.delete(key);
        });
    },
    [videoChanged, update],
  );

  const addFiles = useCallback(
    (files: Iterable<File>, clipOptions: ClipOptions) => {
      const added: UploadEntry[] = [];
      for (const file of files) {
        counter.current += 1;
        added.push({ key: `upload-${counter.current}`, file, clipOptions, snapshot: initialSnapshot(file) });
      }
      setEntries((current) => [...added, ...current]);
      for (const entry of added) run(entry.key, entry.file, entry.clipOptions);
    },
    [run],
  );

  const cancel = useCallback(
    async (key: string) => {
      const entry = entriesRef.current.find((candidate) => candidate.key === key);
      controllers.current.get(key)?.abort();
      const videoId = entry?.snapshot.videoId;
      if (videoId) {
        // Cancelling deletes the video: the upload is aborted and nothing is kept.
        await videoApi.remove(videoId).catch(() => {});
        forgetVideo(browserStore(), videoId);
        videoChanged();
      }
      setEntries((current) => current.filter((candidate) => candidate.key !== key));
    },
    [videoChanged],
  );

  const retry = useCallback(
    (key: string) => {
      const entry = entriesRef.current.find((candidate) => candidate.key === key);
      if (!entry) return;
      update(key, initialSnapshot(entry.file));
      run(key, entry.file, entry.clipOptions);
    },
    [run, update],
  );

  const dismiss = useCallback((key: string) => {
    setEntries((current) => current.filter((candidate) => candidate.key !== key));
  }, []);

  /** Drops the rows of a video deleted elsewhere (the library), stopping its upload if it runs. */
  const dismissVideo = useCallback((videoId: string) => {
    for (const entry of entriesRef.current)
      if (entry.snapshot.videoId === videoId) controllers.current.get(entry.key)?.abort();
    setEntries((current) => current.filter((entry) => entry.snapshot.videoId !== videoId));
  }, []);

  // Leaving the signed-in app (signing out) ends the uploads: they resume when the file is chosen again.
  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
    };
  }, []);

  const active = entries.some((entry) => isRunning(entry.snapshot.phase));
  // Closing or reloading the tab stops the uploads halfway: ask first, but only while one runs.
  useEffect(() => {
    if (!active) return;
    const askBeforeLeaving = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Browsers that predate preventDefault() here ask only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", askBeforeLeaving);
    return () => window.removeEventListener("beforeunload", askBeforeLeaving);
  }, [active]);
  const uploadsByVideo = uploadsByVideoOf(entries);
  return {
    entries,
    addFiles,
    cancel,
    retry,
    dismiss,
    dismissVideo,
    active,
    uploadsByVideo,
    subscribe,
  };
}
