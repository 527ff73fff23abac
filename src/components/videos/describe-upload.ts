import { formatBytes } from "@/lib/format-bytes";
import { formatRate, formatTimeLeft } from "./format";
import type { UploadSnapshot } from "./upload-file";
import type { VideoView } from "./video-api";

export type UploadTone = "brand" | "success" | "danger";

/** What an upload row says, and how its bar looks. */
export type UploadDescription = {
  status: string;
  tone: UploadTone;
  /** Why the upload stopped, or why Truss could not use the uploaded file once the library knows. */
  problem: string | null;
};

const STILL_CHECKING: readonly VideoView["status"][] = ["UPLOADING", "UPLOADED"];
const UNREADABLE = "Truss could not read it as a video.";

/**
 * Describes one upload. Once its bytes are stored, the upload itself is over but Truss still
 * checks the file (ffprobe) and may turn it down; `video` is the library's view of it, so the row
 * says "checking" until the library knows, and never shows success for a video that FAILED.
 */
export function describeUpload(
  snapshot: UploadSnapshot,
  fileSize: number,
  video: Pick<VideoView, "status" | "failureReason"> | undefined,
): UploadDescription {
  const sizes = `${formatBytes(snapshot.loadedBytes)} of ${formatBytes(fileSize)}`;
  const resumed =
    snapshot.resumedParts === 0
      ? ""
      : snapshot.sentInParts
        ? ` · resumed (${snapshot.resumedParts} parts were already uploaded)`
        : " · resumed (the file was already uploaded)";
  const working = (status: string): UploadDescription => ({ status, tone: "brand", problem: null });
  switch (snapshot.phase) {
    case "preparing":
      return working("Preparing…");
    case "uploading":
      return working(
        `${Math.floor(snapshot.fraction * 100)}% · ${sizes} · ${formatRate(snapshot.bytesPerSecond)} · ${formatTimeLeft(snapshot.secondsLeft)}${resumed}`,
      );
    case "completing":
      return working(`Finishing the upload…${resumed}`);
    case "done":
      return describeUploaded(`Uploaded ${formatBytes(fileSize)}${resumed}`, video);
    case "failed":
      // Only a failure a retry can get past offers one; a refused file needs another file.
      if (snapshot.failure?.canRetry === false)
        return { status: "Not uploaded.", tone: "danger", problem: snapshot.failure.message };
      return {
        status: `Stopped at ${sizes}. ${retryWillDo(snapshot, fileSize)}`,
        tone: "danger",
        problem: snapshot.failure?.message ?? null,
      };
    case "cancelled":
      return working("Cancelled");
  }
}

/** What Retry does: send what is missing, which for a file sent in one PUT is all of it. */
function retryWillDo(snapshot: UploadSnapshot, fileSize: number): string {
  if (snapshot.loadedBytes >= fileSize) return "Retry finishes the upload.";
  if (snapshot.sentInParts === false) return "Retry sends the file again.";
  return "Retry resumes from the parts already uploaded.";
}

function describeUploaded(
  uploaded: string,
  video: Pick<VideoView, "status" | "failureReason"> | undefined,
): UploadDescription {
  if (!video || STILL_CHECKING.includes(video.status))
    return {
      status: `${uploaded}. Truss is checking that it can read the file…`,
      tone: "brand",
      problem: null,
    };
  if (video.status === "FAILED")
    return {
      status: `${uploaded}, but Truss could not use it.`,
      tone: "danger",
      problem: video.failureReason ?? UNREADABLE,
    };
  if (video.status === "READY")
    return {
      status: `${uploaded}. Its clips are ready in the library below.`,
      tone: "success",
      problem: null,
    };
  return {
    status: `${uploaded}. Truss is finding its best moments; it continues in the library below.`,
    tone: "success",
    problem: null,
  };
}
