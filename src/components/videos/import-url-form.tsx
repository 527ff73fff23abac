"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";
import { Input } from "@/components/ui/input";
import type { ClipOptions } from "@/engine/clip-options";
import { videoApi } from "./video-api";

/**
 * Import a video from a direct media URL (the worker downloads it). Once the import is queued the
 * field empties for the next one, so a line says where this one went.
 */
export function ImportUrlForm({
  clipOptions,
  onImported,
}: {
  clipOptions: ClipOptions;
  /** Told the new video's id once the import is queued. */
  onImported: (videoId: string) => void;
}) {
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [started, setStarted] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setStarted(null);
    try {
      const { video } = await videoApi.importUrl(url.trim(), clipOptions);
      setUrl("");
      setStarted(`Import started: “${video.filename}” is in the library below.`);
      onImported(video.id);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The import could not be started.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col">
      <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <Input
          className="flex-1"
          label="Or import from a URL"
          type="url"
          placeholder="https://example.com/recording.mp4"
          hint="A direct link to a video file."
          value={url}
          onChange={(event) => setUrl(event.target.value)}
          error={error}
          required
        />
        <Button type="submit" variant="secondary" loading={busy} className="sm:mt-7">
          Import
        </Button>
      </form>
      {/* Always in the page, so screen readers announce the line when it appears. */}
      <p role="status" className={cx("text-sm text-emerald-700", started && "mt-2")}>
        {started}
      </p>
    </div>
  );
}
