"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ClipOptions } from "@/engine/clip-options";
import { browserStore, forgetVideo } from "./file-identity";
import { isRunning, type UploadSnapshot, uploadFile } from "./upload-file";
import { videoApi } from "./video-api";

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
 * The uploads of this page: several at once, each with its own progress, cancel and retry.
 * `onVideoChanged` is called when an upload creates or completes a video, so the library can
 * refresh at once instead of at its next poll.
 */
export function useUploads(onVideoChanged: () => void) {
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const controllers = useRef(new Map<string, AbortController>());
  const counter = useRef(0);

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
            onVideoChanged();
          }
          if (snapshot.phase === "done") onVideoChanged();
        },
      })
        .catch(() => {
          // The snapshot already says what went wrong.
        })
        .finally(() => controllers.current.delete(key));
    },
    [onVideoChanged, update],
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
      const entry = entries.find((candidate) => candidate.key === key);
      controllers.current.get(key)?.abort();
      const videoId = entry?.snapshot.videoId;
      if (videoId) {
        // Cancelling deletes the video: the upload is aborted and nothing is kept.
        await videoApi.remove(videoId).catch(() => {});
        forgetVideo(browserStore(), videoId);
        onVideoChanged();
      }
      setEntries((current) => current.filter((candidate) => candidate.key !== key));
    },
    [entries, onVideoChanged],
  );

  const retry = useCallback(
    (key: string) => {
      const entry = entries.find((candidate) => candidate.key === key);
      if (!entry) return;
      update(key, initialSnapshot(entry.file));
      run(key, entry.file, entry.clipOptions);
    },
    [entries, run, update],
  );

  const dismiss = useCallback((key: string) => {
    setEntries((current) => current.filter((candidate) => candidate.key !== key));
  }, []);

  /** Drops the rows of a video deleted elsewhere (the library), stopping its upload if it runs. */
  const dismissVideo = useCallback(
    (videoId: string) => {
      for (const entry of entries)
        if (entry.snapshot.videoId === videoId) controllers.current.get(entry.key)?.abort();
      setEntries((current) => current.filter((entry) => entry.snapshot.videoId !== videoId));
    },
    [entries],
  );

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
  const uploadingVideoIds = new Set(
    entries
      .filter((entry) => entry.snapshot.phase !== "failed")
      .flatMap((entry) => (entry.snapshot.videoId ? [entry.snapshot.videoId] : [])),
  );
  return { entries, addFiles, cancel, retry, dismiss, dismissVideo, active, uploadingVideoIds };
}
