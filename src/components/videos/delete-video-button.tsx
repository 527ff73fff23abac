"use client";

import { useState } from "react";
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
}: {
  filename: string;
  onDelete: () => Promise<void>;
  variant?: ButtonVariant;
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
      >
        The video and all its clips are deleted. This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
