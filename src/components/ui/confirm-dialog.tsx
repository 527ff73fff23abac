"use client";

import {
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { Button } from "./button";

/**
 * Asks before an action that cannot be undone, in Truss's own look instead of the browser's
 * `confirm()`. A native modal <dialog>: the page behind is inert while it is open, Escape
 * cancels, Cancel has the focus first (a stray Enter keeps things), and focus goes back to what
 * opened it, or to `fallbackFocus` when that went with what was deleted. It runs `onConfirm`
 * itself: while that runs it stays open and cannot be cancelled, and if it throws, it shows the
 * error's message (or `failureMessage`) and stays open for another try. On success the caller
 * closes it (or takes it away with what was deleted).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  failureMessage,
  onConfirm,
  onCancel,
  fallbackFocus,
}: {
  open: boolean;
  title: string;
  /** What happens if the creator confirms. */
  children?: ReactNode;
  confirmLabel: string;
  /** Shown when `onConfirm` fails with something that is not an Error. */
  failureMessage: string;
  onConfirm: () => Promise<void>;
  onCancel: () => void;
  /**
   * Where the focus goes when what opened the dialog is gone (a deleted row's button): the list's
   * heading, say (give it tabIndex -1). Without it, focus falls back to the page.
   */
  fallbackFocus?: RefObject<HTMLElement | null>;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : failureMessage);
    } finally {
      setBusy(false);
    }
  }
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog || !open) return;
    // Asked again, it starts without the last time's error.
    setError(null);
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    dialog.querySelector<HTMLElement>("[data-initial-focus]")?.focus();
    return () => {
      dialog.close();
      // The opener may have gone with what was deleted: then the caller's fallback takes it.
      if (opener?.isConnected) opener.focus();
      else fallbackFocus?.current?.focus();
    };
  }, [open, fallbackFocus]);

  return (
    <dialog
      ref={dialogRef}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={children ? descriptionId : undefined}
      // Escape: the parent decides whether the dialog closes (not while the action runs).
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      onClick={(event) => {
        if (event.target === dialogRef.current && !busy) onCancel();
      }}
      onKeyDown={(event) => {
        if (event.key === "Tab" && dialogRef.current) keepTabInside(dialogRef.current, event);
      }}
      className="m-auto w-[min(92vw,28rem)] rounded-2xl bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-950/50 backdrop:backdrop-blur-sm"
    >
      {open && (
        <div className="flex flex-col gap-4 p-5">
          <div className="flex flex-col gap-2">
            <h2 id={titleId} className="text-base font-semibold break-words">
              {title}
            </h2>
            {children && (
              <div id={descriptionId} className="text-sm text-slate-600">
                {children}
              </div>
            )}
          </div>
          {error && (
            <p role="alert" className="text-sm text-red-600">
              {error}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button data-initial-focus variant="secondary" disabled={busy} onClick={onCancel}>
              Cancel
            </Button>
            <Button variant="danger" loading={busy} onClick={confirm}>
              {confirmLabel}
            </Button>
          </div>
        </div>
      )}
    </dialog>
  );
}

/** Tab from the last button wraps to the first (and back), instead of leaving for the browser's bar. */
function keepTabInside(dialog: HTMLDialogElement, event: KeyboardEvent<HTMLDialogElement>) {
  const focusable = [
    ...dialog.querySelectorAll<HTMLElement>("button:not(:disabled), [href], input, select, textarea"),
  ];
  const first = focusable.at(0);
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
