"use client";

import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { useServerRetry } from "@/components/ui/use-server-retry";

/** Settings could not load (table unavailable, say); offer a retry instead of a blank page. */
export default function SettingsError({ reset }: { error: Error; reset: () => void }) {
  const { retry, retrying } = useServerRetry(reset);
  return (
    <div className="flex flex-col items-start gap-4">
      <Alert tone="danger" title="Settings could not be loaded">
        Something went wrong on our side. Try again in a moment.
      </Alert>
      <Button variant="secondary" onClick={retry} loading={retrying}>
        Try again
      </Button>
    </div>
  );
}
