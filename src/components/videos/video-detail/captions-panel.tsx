"use client";

import { useRouter } from "next/navigation";
import { type ChangeEvent, useRef, useState } from "react";
import { pageErrorMessage } from "@/components/api/page-error-message";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { MAX_SUBTITLE_FILE_BYTES } from "@/engine/captions/parse-subtitles";
import { formatCount } from "@/lib/format-count";
import type { VideoView } from "@/server/videos/to-video-view";

type CaptionsAnswer = { clipsRerendering: number };

/**
 * The creator's subtitle file for the video: an SRT or WebVTT file whose lines are burned into
 * the clips as captions. Choosing one (or removing it) re-renders the clips; the page then
 * reloads its clips, which show their progress.
 */
export function CaptionsPanel({ videoId, captions }: { videoId: string; captions: VideoView["captions"] }) {
  const router = useRouter();
  const fileInput = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string } | null>(null);

  const send = async (init: RequestInit, done: (answer: CaptionsAnswer) => string) => {
    setBusy(true);
    setMessage(null);
    try {
      const response = await fetch(`/api/videos/${encodeURIComponent(videoId)}/captions`, init);
      const body = (await response.json().catch(() => ({}))) as CaptionsAnswer & {
        error?: { message?: string };
      };
      if (!response.ok) {
        setMessage({
          tone: "danger",
          text: pageErrorMessage(response.status, body.error?.message),
        });
        return;
      }
      setMessage({ tone: "success", text: done(body) });
      router.refresh();
    } catch {
      setMessage({
        tone: "danger",
        text: "The request did not reach Truss. Check the connection and try again.",
      });
    } finally {
      setBusy(false);
    }
  };

  const rerendering = (answer: CaptionsAnswer) =>
    answer.clipsRerendering > 0 ? ` ${formatCount(answer.clipsRerendering, "clip")} re-rendering.` : "";

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    // Checked here first to spare a pointless upload; the server enforces the same limit.
    if (file.size > MAX_SUBTITLE_FILE_BYTES) {
      setMessage({
        tone: "danger",
        text: `${file.name} is over ${MAX_SUBTITLE_FILE_BYTES / 1024 / 1024} MB: is it a subtitle file?`,
      });
      return;
    }
    await send(
      {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ fileName: file.name, text: await file.text() }),
      },
      (answer) => `Captions from ${file.name} saved.${rerendering(answer)}`,
    );
  };

  const remove = () => send({ method: "DELETE" }, (answer) => `Captions removed.${rerendering(answer)}`);

  return (
    <div className="flex flex-col gap-3 text-sm">
      {captions ? (
        <p className="text-slate-700">
          From <span className="font-medium text-slate-900">{captions.fileName}</span> ·{" "}
          {formatCount(captions.cueCount, "line")}, burned into the clips.
        </p>
      ) : (
        <p className="text-slate-500">
          None yet. Add an SRT or WebVTT file of what is said, and the clips show it as captions.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {/* The button beside it opens the file chooser and is the one control keyboards and
            screen readers meet; the input, kept for its change event, is no second tab stop. */}
        <input
          ref={fileInput}
          type="file"
          accept=".srt,.vtt,text/vtt,application/x-subrip"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          aria-label="Choose a subtitle file"
          onChange={upload}
        />
        <Button size="sm" variant="secondary" loading={busy} onClick={() => fileInput.current?.click()}>
          {captions ? "Replace file" : "Add subtitle file"}
        </Button>
        {captions && (
          <Button size="sm" variant="ghost" disabled={busy} onClick={remove}>
            Remove
          </Button>
        )}
      </div>
      {message && <Alert tone={message.tone}>{message.text}</Alert>}
    </div>
  );
}
