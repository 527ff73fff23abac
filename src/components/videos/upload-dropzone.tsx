"use client";

import { type DragEvent, useId, useRef, useState } from "react";
import { cx } from "@/components/ui/cx";
import { OutlineIcon } from "@/components/ui/outline-icon";
import { ACCEPTED_VIDEO_FORMATS, listAcceptedFormats } from "@/server/videos/accepted-video-formats";

const ACCEPT = ACCEPTED_VIDEO_FORMATS.flatMap((format) => [
  ...format.extensions.map((extension) => `.${extension}`),
  ...format.contentTypes,
]).join(",");

/** Drop files here, or pick them; several at once. */
export function UploadDropzone({
  onFiles,
  maxSizeText,
}: {
  onFiles: (files: File[]) => void;
  maxSizeText: string;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    const files = [...event.dataTransfer.files];
    if (files.length > 0) onFiles(files);
  };

  return (
    <section
      aria-label="Upload videos"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      className={cx(
        "flex flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed px-6 py-10 text-center transition-colors",
        dragging ? "border-brand-500 bg-brand-50" : "border-slate-300 bg-white",
      )}
    >
      <div className="grid h-12 w-12 place-items-center rounded-full bg-brand-50 text-brand-600">
        <OutlineIcon d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
      </div>
      <div>
        <p className="text-sm font-medium text-slate-900">Drag videos here</p>
        <p className="mt-1 text-sm text-slate-500">
          {listAcceptedFormats("or")}, up to {maxSizeText} each. They upload straight to storage; you can keep
          working.
        </p>
      </div>
      <label
        htmlFor={inputId}
        className="inline-flex h-10 cursor-pointer items-center rounded-lg bg-brand-600 px-4 text-sm font-medium text-white shadow-sm hover:bg-brand-700 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-600"
      >
        Choose files
        <input
          ref={input}
          id={inputId}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          onChange={(event) => {
            const files = [...(event.target.files ?? [])];
            // Reset, so picking the same file again (to resume it) fires a change.
            event.target.value = "";
            if (files.length > 0) onFiles(files);
          }}
        />
      </label>
    </section>
  );
}
