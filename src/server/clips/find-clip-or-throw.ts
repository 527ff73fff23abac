import { type Clip, findClipById } from "@/db/repos/clip-repo";
import { isClipId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";

/**
 * The caller's clip or 404. As with videos (find-video-or-throw.ts), the key is built from the
 * caller's own creator id, so another creator's clip is simply not found.
 */
export async function findClipOrThrow(options: {
  runtime: Runtime;
  creatorId: string;
  clipId: string;
  consistent?: boolean;
}): Promise<Clip> {
  const notFound = () => new AppError("not_found", "No such clip.");
  if (!isClipId(options.clipId)) throw notFound();
  const clip = await findClipById({
    table: tableOf(options.runtime),
    creatorId: options.creatorId,
    clipId: options.clipId,
    consistent: options.consistent,
  });
  if (!clip) throw notFound();
  return clip;
}
