import "server-only";
import { deleteClip as deleteClipItems, renderObjectKeys } from "@/db/repos/clip-repo";
import { recordClipDeleted } from "@/db/repos/video-repo";
import { type Runtime, tableOf } from "@/server/runtime";
import { deleteObjects } from "@/storage/object-io";
import { findClipOrThrow } from "./find-clip-or-throw";

/**
 * A creator discards one of a ready video's clips: the clip, its rank item and its render go,
 * and the video counts one clip fewer and remembers its range, so that asking for other clips
 * does not bring it back. Not while the video is being processed, whose job writes
 * its clips and their count. A render of the clip still running finds it gone and removes what
 * it stored. Repeatable only as far as the first answer: the clip is then not found (404).
 */
export async function deleteClip(options: { runtime: Runtime; creatorId: string; clipId: string }) {
  const { runtime, creatorId, clipId } = options;
  const table = tableOf(runtime);
  const clip = await findClipOrThrow({ runtime, creatorId, clipId, consistent: true });
  const { videoId } = clip;
  // Conditional on the video READY in the same transaction: refused (409, with its status) while
  // it is processed, including when a request for other clips lands between read and write.
  const deleted = await deleteClipItems({ table, creatorId, clipId, whileVideoReady: { videoId } });
  // Gone meanwhile (another tab): the same outcome, counted once.
  if (!deleted) return;
  await recordClipDeleted({ table, creatorId, videoId, range: clip });
  const keys = clip.render ? renderObjectKeys(clip.render) : [];
  // Objects left behind cost a little storage and go with the video.
  await deleteObjects({ s3: runtime.clients.s3, bucket: runtime.config.aws.bucketName, keys }).catch(
    () => undefined,
  );
}
