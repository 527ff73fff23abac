"use client";

import { Button, ButtonLink } from "@/components/ui/button";
import { Logo } from "@/components/ui/logo";
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
    <div className="flex min-h-screen flex-col items-center justify-center gap-8 px-4 py-12">
      <header>
        <Logo />
      </header>
      <main className="flex w-full max-w-md flex-col items-center gap-4 rounded-2xl border border-slate-200 bg-white px-6 py-8 text-center shadow-sm">
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
      </main>
    </div>
  );
}
