"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { DeleteVideoButton } from "../delete-video-button";
import { videoApi } from "../video-api";

/** A FAILED video's page: why it failed, another file to upload, or deleting it (back to /videos). */
export function FailedVideoNotice({
  videoId,
  filename,
  failureReason,
}: {
  videoId: string;
  filename: string;
  failureReason: string | null;
}) {
  const router = useRouter();
  return (
    <Alert tone="danger" title="This video could not be processed">
      <p>{failureReason ?? "Something went wrong while processing it."}</p>
      <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
        <DeleteVideoButton
          filename={filename}
          variant="secondary"
          onDelete={async () => {
            await videoApi.remove(videoId);
            router.push("/videos");
          }}
        />
        <Link href="/videos" className="font-medium underline">
          Upload another file
        </Link>
      </div>
    </Alert>
  );
}
