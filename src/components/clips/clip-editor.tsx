"use client";

import { type FormEvent, type KeyboardEvent, type RefObject, useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { cx } from "@/components/ui/cx";
import { formatTimestamp } from "@/engine/format-timestamp";
import { RENDERED_LAYOUT_WORDS } from "@/engine/render/layout-words";
import type { LayoutChoice } from "@/engine/types";
import { formatLength } from "@/lib/format-length";
import type { ClipDetail } from "@/server/clips/get-clip";
import { deleteClipRequest, saveClipEdit } from "./clip-api";
import { parseTimestamp } from "./parse-timestamp";
import { quotedTitle } from "./quoted-title";

/** Shows a time to a tenth of a second, as the editor's fields read it back. */
function toField(seconds: number): string {
  const tenths = Math.round(seconds * 10) / 10;
  const whole = Math.floor(tenths);
  const fraction = Math.round((tenths - whole) * 10);
  return fraction === 0 ? formatTimestamp(whole) : `${formatTimestamp(whole)}.${fraction}`;
}

const LAYOUT_OPTIONS: { value: LayoutChoice; label: string }[] = [
  { value: "auto", label: "Automatic" },
  { value: "crop", label: "Follow the subject (9:16 crop)" },
  { value: "fit", label: "Whole frame, blurred bands" },
  { value: "facecam", label: "Face cam on top, picture below" },
];

/**
 * Edits a clip's start and end — typed times (`1:15.5`), ±1 s nudges, or "use player time"
 * when the source player is on the page — and its layout. Saving re-renders the clip; the
 * current render stays on show until the new one is ready. Or deletes the clip, when the page
 * can take it away (`onDeleted`).
 */
export function ClipEditor({
  clip,
  playerSeconds,
  onSaved,
  onCancel,
  onDeleted,
  focusAfterDelete,
}: {
  clip: ClipDetail;
  /** Where the source player on the page is; absent when there is none to set from. */
  playerSeconds?: number;
  onSaved: (clip: ClipDetail) => void;
  onCancel: () => void;
  onDeleted?: () => void;
  /** Takes the focus once the clip (and this editor) is gone. */
  focusAfterDelete?: RefObject<HTMLElement | null>;
}) {
  const [startText, setStartText] = useState(toField(clip.startSeconds));
  const [endText, setEndText] = useState(toField(clip.endSeconds));
  const [layout, setLayout] = useState<LayoutChoice>(clip.layout);
  // A vertical source is shown as filmed, whatever the choice.
  const vertical = clip.rendered?.layout === "native-vertical";
  const [saving, setSaving] = useState(false);
  const [askingToDelete, setAskingToDelete] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { minSeconds, maxSeconds } = clip.editLimits;
  const durationSeconds = clip.source.durationSeconds;
  // Opened from its Edit button, which goes away: the start field takes the focus.
  const startField = useRef<HTMLInputElement>(null);
  useEffect(() => startField.current?.focus(), []);
  // Escape leaves the editor as Cancel does (the delete dialog handles its own Escape).
  const cancelOnEscape = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Escape" && !askingToDelete && !saving) {
      event.preventDefault();
      onCancel();
    }
  };

  const start = parseTimestamp(startText);
  const end = parseTimestamp(endText);
  const length = start !== null && end !== null ? end - start : null;
  const problem =
    start === null || end === null
      ? "Type times as seconds or m:ss (for example 1:15.5)."
      : end <= start
        ? "The end must come after the start."
        : durationSeconds !== null && end > durationSeconds + 0.01
          ? `The video ends at ${formatTimestamp(durationSeconds)}.`
          : length !== null && (length < minSeconds || length > maxSeconds)
            ? `A clip must be ${minSeconds}–${maxSeconds} s long.`
            : null;
  // Compared as shown: the fields hold tenths, a clip's times may have centiseconds.
  const rangeChanged = startText !== toField(clip.startSeconds) || endText !== toField(clip.endSeconds);
  const unchanged = !rangeChanged && layout === clip.layout;

  const nudge = (which: "start" | "end", deltaSeconds: number) => {
    const current = which === "start" ? start : end;
    if (current === null) return;
    const next = Math.max(0, Math.min(durationSeconds ?? Number.POSITIVE_INFINITY, current + deltaSeconds));
    (which === "start" ? setStartText : setEndText)(toField(next));
  };

  const fromPlayer = (which: "start" | "end") => {
    if (playerSeconds === undefined) return;
    (which === "start" ? setStartText : setEndText)(toField(playerSeconds));
  };

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (problem || start === null || end === null) return;
    setSaving(true);
    setError(null);
    try {
      onSaved(
        await saveClipEdit({
          clipId: clip.clipId,
          // A new layout alone keeps the clip's exact range.
          ...(rangeChanged ? { startSeconds: start, endSeconds: end } : {}),
          layout,
          expectedVersion: clip.version,
        }),
      );
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : "The edit could not be saved.");
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    await deleteClipRequest(clip.clipId);
    onDeleted?.();
  }

  const field = (which: "start" | "end", label: string, value: string, setValue: (text: string) => void) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${clip.clipId}-${which}`} className="text-xs font-medium text-slate-700">
        {label}
      </label>
      <div className="flex items-center gap-1">
        <button
          type="button"
          onClick={() => nudge(which, -1)}
          className="h-8 w-7 rounded-md text-sm text-slate-600 ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
          aria-label={`${label} 1 second earlier`}
        >
          −
        </button>
        <input
          ref={which === "start" ? startField : undefined}
          id={`${clip.clipId}-${which}`}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          inputMode="decimal"
          className="h-8 w-20 rounded-md border border-slate-300 px-2 text-center text-sm tabular-nums focus:outline-2 focus:outline-brand-500"
        />
        <button
          type="button"
          onClick={() => nudge(which, 1)}
          className="h-8 w-7 rounded-md text-sm text-slate-600 ring-1 ring-slate-300 ring-inset hover:bg-slate-50"
          aria-label={`${label} 1 second later`}
        >
          +
        </button>
      </div>
      {/* The time it would set is on the button: on a phone the player is a screen away. */}
      {playerSeconds !== undefined && (
        <button
          type="button"
          onClick={() => fromPlayer(which)}
          aria-label={`Set ${label.toLowerCase()} to the player's time, ${toField(playerSeconds)}`}
          className="self-start text-xs font-medium text-brand-700 tabular-nums hover:underline"
        >
          Use player time · {toField(playerSeconds)}
        </button>
      )}
    </div>
  );

  return (
    <form
      onSubmit={submit}
      onKeyDown={cancelOnEscape}
      aria-label={`Edit ${quotedTitle(clip.title)}`}
      className="flex flex-col gap-3 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap gap-4">
        {field("start", "Start", startText, setStartText)}
        {field("end", "End", endText, setEndText)}
      </div>
      <p className={cx("text-xs", problem ? "text-red-600" : "text-slate-500")}>
        {problem ?? `${formatLength(length ?? 0)} · clips can be ${minSeconds}–${maxSeconds} s`}
      </p>
      {!vertical && (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${clip.clipId}-layout`} className="text-xs font-medium text-slate-700">
            Layout
          </label>
          <select
            id={`${clip.clipId}-layout`}
            value={layout}
            onChange={(event) => setLayout(event.target.value as LayoutChoice)}
            className="h-8 self-start rounded-md border border-slate-300 bg-white px-2 text-sm focus:outline-2 focus:outline-brand-500"
          >
            {LAYOUT_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          {clip.rendered && (
            <p className="text-xs text-slate-500">
              Rendered now: {RENDERED_LAYOUT_WORDS[clip.rendered.layout]}
            </p>
          )}
        </div>
      )}
      {error && <Alert tone="danger">{error}</Alert>}
      {/* Labels on one line each: on a phone, "Delete clip" moves to a line of its own. */}
      <div className="flex flex-wrap gap-2 *:whitespace-nowrap">
        <Button type="submit" size="sm" loading={saving} disabled={Boolean(problem) || unchanged}>
          Save and re-render
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        {onDeleted && (
          <Button
            type="button"
            size="sm"
            variant="ghost"
            className="ml-auto text-red-700"
            onClick={() => setAskingToDelete(true)}
          >
            Delete clip
          </Button>
        )}
        <ConfirmDialog
          open={askingToDelete}
          title={`Delete ${quotedTitle(clip.title)}?`}
          confirmLabel="Delete clip"
          failureMessage="The clip could not be deleted."
          onConfirm={remove}
          onCancel={() => setAskingToDelete(false)}
          fallbackFocus={focusAfterDelete}
        >
          Its render goes too. This cannot be undone.
        </ConfirmDialog>
      </div>
    </form>
  );
}
