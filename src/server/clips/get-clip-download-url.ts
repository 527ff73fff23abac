import "server-only";
import { AppError } from "@/server/errors";
import type { Runtime } from "@/server/runtime";
import { presignGet } from "@/storage/presign";
import { clipDownloadFilename } from "./clip-download-filename";
import { findClipOrThrow } from "./find-clip-or-throw";

/**
 * A URL signed now that saves the newest finished render of one of the creator's clips as a
 * file. Pages link to the route that redirects here rather than to a loaded clip's
 * `media.downloadUrl`, which expires while the page stays open. It is signed from now, not
 * from a shared window like the URLs of loaded pages: it is used once, right away. The file is
 * named after the source video too (clip-download-filename.ts), so clips of two videos do not clash.
 */
export async function getClipDownloadUrl(options: {
  runtime: Runtime;
  creatorId: string;
  clipId: string;
}): Promise<string> {
  const { runtime } = options;
  const { clip, render } = await findRenderedClip(options);
  const { url } = await presignGet({
    client: runtime.clients.s3Presigner,
    bucket: runtime.config.aws.bucketName,
    key: render.videoKey,
    downloadFilename: clipDownloadFilename(clip, render),
  });
  return url;
}

/** One of the creator's clips with its newest finished render: 404 for another's, 409 before one. */
export async function findRenderedClip(options: { runtime: Runtime; creatorId: string; clipId: string }) {
  const clip = await findClipOrThrow(options);
  if (!clip.render) throw new AppError("conflict", "This clip has not been rendered yet.");
  return { clip, render: clip.render };
}
