import { formatCount } from "@/lib/format-count";
import { describeUpload } from "./describe-upload";
import type { UploadSnapshot } from "./upload-file";
import type { VideoView } from "./video-api";

/** This tab's upload of a video, as its row in the upload panel knows it. */
export type UploadHere = { snapshot: UploadSnapshot; fileSize: number };

type StandingVideo = Pick<
  VideoView,
  "status" | "origin" | "stage" | "progressPercent" | "failureReason" | "clipCount"
>;

/**
 * Where a video stands, as a list of videos (the library, the dashboard) tells it in one line.
 * `percent` (0..100) is set while the video moves on by itself and its progress is known.
 */
export type VideoStanding = {
  kind: "uploading" | "importing" | "interrupted" | "processing" | "failed" | "ready";
  text: string;
  percent: number | null;
};

/** Imported from a URL and still being downloaded: the worker sends its bytes, not a page. */
export const isImporting = (video: Pick<VideoView, "status" | "origin">) =>
  video.status === "UPLOADING" && video.origin === "import";

const withPercent = (text: string, percent: number) => `${text} · ${Math.round(percent)}%`;

/**
 * The server only knows that a video still waits for its bytes (UPLOADING). Who sends them is
 * told apart here: the worker for a URL import, this tab's upload (`uploadHere`, with its live
 * progress), or else nobody any more: the upload was interrupted, and choosing the same file
 * again resumes it.
 */
export function videoStanding(video: StandingVideo, uploadHere: UploadHere | undefined): VideoStanding {
  switch (video.status) {
    case "READY":
      return { kind: "ready", text: formatCount(video.clipCount, "clip"), percent: null };
    case "FAILED":
      return { kind: "failed", text: video.failureReason ?? "Processing failed", percent: null };
    case "UPLOADING":
      return waitingForBytes(video, uploadHere);
    default:
      return {
        kind: "processing",
        text: withPercent(video.stage ?? video.status.toLowerCase(), video.progressPercent),
        percent: video.progressPercent,
      };
  }
}

function waitingForBytes(video: StandingVideo, uploadHere: UploadHere | undefined): VideoStanding {
  if (isImporting(video)) {
    const importing = video.stage ? `Importing from a URL · ${video.stage}` : "Importing from a URL…";
    // Zero until the first bytes arrive, and all along when the server does not say the size.
    const percent = video.progressPercent > 0 ? video.progressPercent : null;
    return {
      kind: "importing",
      text: percent === null ? importing : withPercent(importing, percent),
      percent,
    };
  }
  if (uploadHere) {
    const { snapshot, fileSize } = uploadHere;
    return {
      kind: "uploading",
      text: describeUpload(snapshot, fileSize, video).status,
      percent: snapshot.fraction * 100,
    };
  }
  return {
    kind: "interrupted",
    text: "Upload interrupted. Choose the same file again to resume where it stopped.",
    percent: null,
  };
}
