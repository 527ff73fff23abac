"use client";

import { Button } from "@/components/ui/button";
import { describeUpload } from "./describe-upload";
import { ProgressBar } from "./progress-bar";
import { isRunning } from "./upload-file";
import type { UploadEntry } from "./use-uploads";
import type { VideoView } from "./video-api";

/**
 * The uploads running (or just finished) in this tab, one row each; a row's buttons name its
 * file, as several rows' "Cancel" would otherwise sound alike. A finished upload follows its
 * video in the library (`libraryVideos`): stored bytes are only the start, the check after
 * them can still turn the file down.
 */
export function UploadList({
  entries,
  libraryVideos,
  onCancel,
  onRetry,
  onDismiss,
}: {
  entries: UploadEntry[];
  libraryVideos: ReadonlyMap<string, VideoView>;
  onCancel: (key: string) => void;
  onRetry: (key: string) => void;
  onDismiss: (key: string) => void;
}) {
  if (entries.length === 0) return null;
  return (
    <ul
      aria-label="Uploads"
      className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      {entries.map(({ key, file, snapshot }) => {
        const video = snapshot.videoId ? libraryVideos.get(snapshot.videoId) : undefined;
        const description = describeUpload(snapshot, file.size, video);
        const running = isRunning(snapshot.phase);
        // Refused by this page or the server for what the file is: retrying cannot help.
        const refused = snapshot.failure?.canRetry === false;
        return (
          <li
            key={key}
            data-testid="upload-row"
            data-phase={snapshot.phase}
            data-video-status={video?.status}
            className="flex flex-col gap-2 px-4 py-3 sm:px-5 sm:py-4"
          >
            <div className="flex items-center justify-between gap-4">
              <div className="min-w-0">
                <p className="text-sm font-medium break-words text-slate-900" title={file.name}>
                  {file.name}
                </p>
                <p className="text-xs text-slate-500" data-testid="upload-status">
                  {description.status}
                </p>
              </div>
              <div className="flex shrink-0 gap-2">
                {running && (
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Cancel upload of ${file.name}`}
                    onClick={() => onCancel(key)}
                  >
                    Cancel
                  </Button>
                )}
                {snapshot.phase === "failed" && (
                  <>
                    {!refused && (
                      <Button
                        size="sm"
                        aria-label={`Retry upload of ${file.name}`}
                        onClick={() => onRetry(key)}
                      >
                        Retry
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Discard upload of ${file.name}`}
                      onClick={() => onCancel(key)}
                    >
                      Discard
                    </Button>
                  </>
                )}
                {snapshot.phase === "done" && (
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Dismiss upload of ${file.name}`}
                    onClick={() => onDismiss(key)}
                  >
                    Dismiss
                  </Button>
                )}
              </div>
            </div>
            {/* No bar for a refused file: nothing was sent, and an empty file reads as 100%. */}
            {!refused && (
              <ProgressBar
                label={`Upload of ${file.name}`}
                percent={snapshot.fraction * 100}
                tone={description.tone}
              />
            )}
            {description.problem && (
              <p role="alert" className="text-sm text-red-600">
                {description.problem}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
