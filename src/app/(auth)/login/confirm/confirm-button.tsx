"use client";

import { useFormStatus } from "react-dom";
import { Button } from "@/components/ui/button";

/**
 * The confirm page's submit button. Once pressed it stays busy until the next page loads: a
 * second press would post the same one-time link again, and that post's "link already used"
 * would replace the sign-in the first one is completing. Without JavaScript it is a plain
 * submit button.
 */
export function ConfirmButton({ children }: { children: React.ReactNode }) {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" className="w-full" loading={pending}>
      {children}
    </Button>
  );
}
