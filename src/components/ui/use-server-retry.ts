"use client";

import { useRouter } from "next/navigation";
import { useTransition } from "react";

/**
 * "Try again" for an error boundary over server components: `reset` alone re-renders what the
 * server already sent (the same error); the page's server work must be asked for again first.
 */
export function useServerRetry(reset: () => void): { retry: () => void; retrying: boolean } {
  const router = useRouter();
  const [retrying, startTransition] = useTransition();
  const retry = () =>
    startTransition(() => {
      router.refresh();
      reset();
    });
  return { retry, retrying };
}
