"use client";

import { createContext, type ReactNode, useContext, useEffect } from "react";
import { type Uploads, useUploadsState } from "./use-uploads";

const UploadsContext = createContext<Uploads | null>(null);

/**
 * Holds the tab's uploads above the pages (mounted by the app's layout): moving to another
 * page of the app neither stops an upload nor hides it, and the close-tab warning stays on
 * while one runs.
 */
export function UploadsProvider({ children }: { children: ReactNode }) {
  const uploads = useUploadsState();
  return <UploadsContext value={uploads}>{children}</UploadsContext>;
}

/**
 * The tab's uploads. `onVideoChanged` (keep it stable) is called while mounted whenever an
 * upload creates, completes or cancels a video.
 */
export function useUploads(onVideoChanged?: () => void): Uploads {
  const uploads = useContext(UploadsContext);
  if (!uploads) throw new Error("useUploads needs an UploadsProvider above it (the app's layout has one).");
  const { subscribe } = uploads;
  useEffect(() => (onVideoChanged ? subscribe(onVideoChanged) : undefined), [subscribe, onVideoChanged]);
  return uploads;
}
