"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { DismissableDetails } from "@/components/ui/dismissable-details";
import type { ClipOptions } from "@/engine/clip-options";
import { offeredOrDefaults } from "../clip-options-choices";
import { ClipOptionsPicker } from "../clip-options-picker";
import { videoApi } from "../video-api";
import { type ClipRange, rememberOtherClipsAsked, sessionStore } from "./other-clips-outcome";

/**
 * "Other clips…" on a ready video's page: how many and how long, then the video is analysed
 * again from its stored signals (no new upload, nothing decoded again) and the page follows
 * its progress. The clips shown when it asks are kept for the tab, so that the page can say when
 * the same ones came back (OtherClipsNotice).
 */
export function RecutControl({
  videoId,
  clipOptions,
  defaults,
  updatedAt,
  clips,
}: {
  videoId: string;
  clipOptions: ClipOptions;
  defaults: ClipOptions;
  /** The ready video's, as the page shows it. */
  updatedAt: string;
  clips: ClipRange[];
}) {
  const router = useRouter();
  const summary = useRef<HTMLElement>(null);
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState(() => offeredOrDefaults(defaults, clipOptions));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      await videoApi.recut(videoId, value);
      const store = sessionStore();
      if (store) rememberOtherClipsAsked(store, videoId, { readyAt: updatedAt, clips });
      setOpen(false);
      router.refresh();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The request did not reach Truss. Try again.");
    } finally {
      setBusy(false);
    }
  };

  // As Escape does: the Cancel button goes with the popover, the summary that opened it stays.
  const cancel = () => {
    setOpen(false);
    summary.current?.focus();
  };

  return (
    <DismissableDetails
      className="relative"
      open={open}
      onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
    >
      <summary ref={summary} className={buttonClasses("secondary", "sm", "cursor-pointer list-none")}>
        Other clips…
      </summary>
      <div className="absolute left-0 z-20 mt-2 flex w-[min(92vw,36rem)] sm:left-auto sm:right-0 flex-col gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-lg">
        <ClipOptionsPicker value={value} defaults={defaults} onChange={setValue} />
        <p className="text-sm text-slate-500">
          The moments are found again from what was measured, and the clips replaced. Clips you edited
          (trimmed, or gave a layout) stay as you made them, beside the new ones; moments whose clips you
          deleted are not offered again.
        </p>
        {error && <Alert tone="danger">{error}</Alert>}
        <div className="flex gap-2">
          <Button size="sm" loading={busy} onClick={submit}>
            Find clips again
          </Button>
          <Button size="sm" variant="ghost" onClick={cancel}>
            Cancel
          </Button>
        </div>
      </div>
    </DismissableDetails>
  );
}
