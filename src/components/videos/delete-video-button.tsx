"use client";

import { type RefObject, useState } from "react";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/**
 * Delete, for one video: asks in Truss's confirm dialog, runs `onDelete`, and keeps the dialog
 * open with the server's reason when the delete fails.
 */
export function DeleteVideoButton({
  filename,
  onDelete,
  variant = "ghost",
  focusAfterDelete,
}: {
  filename: string;
  onDelete: () => Promise<void>;
  variant?: ButtonVariant;
  /** Takes the focus once the video (and this button with it) is gone. */
  focusAfterDelete?: RefObject<HTMLElement | null>;
}) {
  const [asking, setAsking] = useState(false);

  return (
    <>
      <Button size="sm" variant={variant} aria-label={`Delete ${filename}`} onClick={() => setAsking(true)}>
        Delete
      </Button>
      <ConfirmDialog
        open={asking}
        title={`Delete “${filename}”?`}
        confirmLabel="Delete video"
        failureMessage="The video could not be deleted."
        onConfirm={async () => {
          await onDelete();
          setAsking(false);
        }}
        onCancel={() => setAsking(false)}
        fallbackFocus={focusAfterDelete}
      >
        The video and all its clips are deleted. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
