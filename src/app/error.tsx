"use client";

import { Button, ButtonLink } from "@/components/ui/button";
import { CenteredPage } from "@/components/ui/centered-page";
import { useServerRetry } from "@/components/ui/use-server-retry";

/**
 * A page, or the signed-in app around it, failed on the server (the table or storage out of
 * reach, say): say so and offer a retry instead of Next's bare "Application error". Settings
 * has a message of its own inside the app.
 */
export default function AppError({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  const { retry, retrying } = useServerRetry(reset);
  return (
    <CenteredPage className="flex flex-col items-center gap-4 text-center">
      <h1 className="text-xl font-bold tracking-tight text-slate-900">This page could not be loaded</h1>
      <p className="text-sm text-slate-500">
        Something went wrong on our side; nothing you uploaded is lost. Try again in a moment.
      </p>
      {error.digest && <p className="font-mono text-xs text-slate-500">Reference: {error.digest}</p>}
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={retry} loading={retrying}>
          Try again
        </Button>
        <ButtonLink href="/dashboard" variant="secondary">
          Dashboard
        </ButtonLink>
      </div>
    </CenteredPage>
  );
}
