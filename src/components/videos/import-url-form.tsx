"use client";

import { type FormEvent, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { ClipOptions } from "@/engine/clip-options";
import { videoApi } from "./video-api";

/** Import a video from a direct media URL (the worker downloads it). */
export function ImportUrlForm({
  clipOptions,
  onImported,
}: {
  clipOptions: ClipOptions;
  onImported: () => void;
}) {
  const [url, setUrl] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await videoApi.importUrl(url.trim(), clipOptions);
      setUrl("");
      onImported();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The import could not be started.");
    } finally {
      setBusy(false);
    }
  };

  return (
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
  );
}
