import { ApiError } from "./video-api";

/** Why an upload stopped, and whether trying the same file again can help. */
export type UploadFailure = { message: string; canRetry: boolean };

/** A file this page turns down before sending anything (the server would refuse it too). */
export class FileRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileRefusedError";
  }
}

/**
 * What the page can tell about a chosen file without asking the server: `null` when it may be
 * sent. An empty file is refused here, not with the server's schema message after a request.
 */
export function refuseChosenFile(file: Pick<File, "name" | "size">): FileRefusedError | null {
  if (file.size === 0) return new FileRefusedError(`${file.name} is empty (0 bytes).`);
  return null;
}

/**
 * The server's answers about the file itself: too large (413), not a video we take (415), or
 * invalid as declared (422). Sending the same file again gets the same answer, so they are
 * not retried. Everything else (network, 5xx, 429, an ended session) may pass on a retry.
 */
const REFUSES_THE_FILE: readonly number[] = [413, 415, 422];

export function toUploadFailure(error: unknown): UploadFailure {
  if (
    error instanceof FileRefusedError ||
    (error instanceof ApiError && REFUSES_THE_FILE.includes(error.status))
  )
    return { message: `${asSentence(error.message)} Choose another file.`, canRetry: false };
  // The session ended mid-upload (signed out everywhere, or expired): what is stored stays, and a
  // retry once signed in again (another tab keeps this page and its file) resumes from it.
  if (error instanceof ApiError && error.status === 401)
    return {
      message:
        "You were signed out before the upload finished. Sign in again in another tab (this one keeps the upload), then choose Retry.",
      canRetry: true,
    };
  return { message: error instanceof Error ? error.message : String(error), canRetry: true };
}

/** Schema messages ("Invalid input: sizeBytes: Too small…") end without a full stop. */
function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
