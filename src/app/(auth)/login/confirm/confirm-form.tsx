"use client";

import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * The confirm page's form: a plain POST to the sign-in callback, so it works without
 * JavaScript. With it, the button stays busy once pressed until the next page loads: a second
 * press would post the same one-time link again, and that post's "link already used" answer
 * would replace the sign-in the first one is completing.
 */
export function ConfirmForm({ action, label }: { action: string; label: string }) {
  const [submitted, setSubmitted] = useState(false);
  // Checked synchronously: a double click's second submit comes before React re-renders.
  const submittedRef = useRef(false);
  return (
    <form
      method="post"
      action={action}
      onSubmit={(event) => {
        if (submittedRef.current) {
          event.preventDefault();
          return;
        }
        submittedRef.current = true;
        setSubmitted(true);
      }}
    >
      <Button type="submit" className="w-full" loading={submitted}>
        {label}
      </Button>
    </form>
  );
}
