"use client";

import { Button } from "@/components/ui/button";
import { formatBytes, formatRate, formatTimeLeft } from "./format";
import { ProgressBar } from "./progress-bar";
import type { UploadEntry } from "./use-uploads";

/** The uploads running (or just finished) on this page, one row each. */
export function UploadList({
  entries,
  onCancel,
  onRetry,
  onDismiss,
}: {
  entries: UploadEntry[];
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
        const percent = snapshot.fraction * 100;
        const running = ["preparing", "uploading", "completing"].includes(snapshot.phase);
        return (
          <li
            key={key}
            data-testid="upload-row"
            data-phase={snapshot.phase}
            className="flex flex-col gap-2 px-5 py-4"
          >
            <div className="flex items-center justify-between gap-4">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900" title={file.name}>
                  {file.name}
                </p>
                <p className="text-xs text-slate-500" data-testid="upload-status">
                  {describe(snapshot.phase, snapshot, file.size)}
                </p>
              </div>
              <div className="flex shrink-0 gap-2">
                {running && (
                  <Button size="sm" variant="secondary" onClick={() => onCancel(key)}>
                    Cancel
                  </Button>
                )}
                {snapshot.phase === "failed" && (
                  <>
                    <Button size="sm" onClick={() => onRetry(key)}>
                      Retry
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => onCancel(key)}>
                      Discard
                    </Button>
                  </>
                )}
                {snapshot.phase === "done" && (
                  <Button size="sm" variant="ghost" onClick={() => onDismiss(key)}>
                    Dismiss
                  </Button>
                )}
              </div>
            </div>
            <ProgressBar
              label={`Upload of ${file.name}`}
              percent={percent}
              tone={snapshot.phase === "failed" ? "danger" : snapshot.phase === "done" ? "success" : "brand"}
            />
            {snapshot.error && (
              <p role="alert" className="text-sm text-red-600">
                {snapshot.error}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

function describe(
  phase: UploadEntry["snapshot"]["phase"],
  snapshot: UploadEntry["snapshot"],
  size: number,
): string {
  const sizes = `${formatBytes(snapshot.loadedBytes)} of ${formatBytes(size)}`;
  const resumed =
    snapshot.resumedParts > 0 ? ` · resumed (${snapshot.resumedParts} parts were already uploaded)` : "";
  switch (phase) {
    case "preparing":
      return "Preparing…";
    case "uploading":
      return `${Math.floor(snapshot.fraction * 100)}% · ${sizes} · ${formatRate(snapshot.bytesPerSecond)} · ${formatTimeLeft(snapshot.secondsLeft)}${resumed}`;
    case "completing":
      return `Finishing the upload…${resumed}`;
    case "done":
      return `Uploaded ${formatBytes(size)}${resumed}. It continues in the library below.`;
    case "failed":
      return `Stopped at ${sizes}. Retry resumes from the parts already uploaded.`;
    case "cancelled":
      return "Cancelled";
  }
}
