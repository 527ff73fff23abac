import "server-only";
import { z } from "zod";
import { createVideo } from "@/db/repos/video-repo";
import { type ClipOptions, ClipOptionsInput } from "@/engine/clip-options";
import { createId } from "@/lib/ids";
import {
  MAX_IMPORT_URL_LENGTH,
  parseImportUrl,
  resolvePublicAddresses,
  UrlImportError,
} from "@/net/open-public-url";
import { enqueueJob } from "@/queue/enqueue-job";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { sourceObjectKey } from "@/storage/object-keys";
import { displayFilename } from "./accepted-video-formats";
import { toVideoView, type VideoView } from "./to-video-view";

export const ImportVideoBody = z
  .object({
    // A bound on what is read; what is too long to import, parseImportUrl says in its own words.
    url: z.string().max(MAX_IMPORT_URL_LENGTH * 4),
    clipOptions: ClipOptionsInput.optional(),
  })
  .strict();

/**
 * Queues the import of a direct media URL: the worker fetches it into the bucket and then
 * ingests it like an upload. The address is checked here too, so an obviously refused URL
 * (private network, bad scheme) gets a clear 422 at once; the worker checks again on every hop.
 */
export async function importVideoFromUrl(options: {
  runtime: Runtime;
  creatorId: string;
  url: string;
  clipOptions?: ClipOptions;
}): Promise<{ video: VideoView }> {
  const { runtime, creatorId } = options;
  let url: URL;
  try {
    url = parseImportUrl(options.url.trim());
    await resolvePublicAddresses(url, {
      allowPrivateAddresses: runtime.config.uploads.importAllowPrivateAddresses,
    });
  } catch (error) {
    // A host that does not resolve right now may resolve for the worker; anything else is final.
    if (error instanceof UrlImportError && error.kind !== "unresolvable")
      throw new AppError("validation_failed", error.message, { cause: error });
    if (!(error instanceof UrlImportError)) throw error;
    url = parseImportUrl(options.url.trim());
  }
  const videoId = createId("video");
  const lastSegment = decodeURIComponentSafe(url.pathname.split("/").filter(Boolean).pop() ?? "");
  const video = await createVideo({
    table: tableOf(runtime),
    video: {
      creatorId,
      videoId,
      origin: "import",
      filename: displayFilename(lastSegment || url.hostname),
      declaredContentType: null,
      declaredSizeBytes: null,
      importUrl: url.toString(),
      sourceKey: sourceObjectKey(creatorId, videoId),
      uploadKind: "multipart",
      uploadId: null,
      partSizeBytes: null,
      partCount: null,
      stage: "waiting to download",
      clipOptions: options.clipOptions,
    },
  });
  await enqueueJob(runtime, "import-video", { creatorId, videoId });
  return { video: await toVideoView(runtime, video) };
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
