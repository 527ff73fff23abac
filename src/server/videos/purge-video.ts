import { deleteVideoItems, type Video } from "@/db/repos/video-repo";
import { type Runtime, tableOf } from "@/server/runtime";
import { deletePrefix } from "@/storage/delete-prefix";
import { abortMultipartUpload } from "@/storage/multipart";
import { videoObjectPrefix } from "@/storage/object-keys";
import { UPLOAD_URL_TTL_SECONDS } from "@/storage/presign";

/** Past the upload URLs' expiry, for a PUT that began just before it. */
const FOLDER_CHECK_MARGIN_SECONDS = 5 * 60;

/**
 * Removes a video completely: its open multipart upload, every object under its folder, and
 * every item (clips with their rank items, chapters, upload parts, the video, its index entry).
 *
 * Order matters for repeatability: objects first and the video item last, so if anything fails
 * half-way the video is still there and running this again finishes the job. The folder is
 * emptied once more at the end, for a render that finished while the items were being deleted,
 * and once more by the sweep after the upload URLs signed for it have expired (a PUT through one
 * of them would otherwise store a file nothing refers to or removes).
 */
export async function purgeVideo(
  runtime: Runtime,
  video: Pick<Video, "creatorId" | "videoId" | "uploadId" | "sourceKey">,
) {
  const { s3 } = runtime.clients;
  const bucket = runtime.config.aws.bucketName;
  const prefix = videoObjectPrefix(video.creatorId, video.videoId);
  if (video.uploadId) {
    // The embedded S3 server cannot abort ("unsupported"): its parts are never visible as an object.
    await abortMultipartUpload({ s3, bucket, key: video.sourceKey, uploadId: video.uploadId });
  }
  const deletedObjects = await deletePrefix({ s3, bucket, prefix });
  const { deletedItems } = await deleteVideoItems({
    table: tableOf(runtime),
    creatorId: video.creatorId,
    videoId: video.videoId,
    // No URL is signed for a video that is gone; the last one signed expires by then.
    emptyFolderAfter: new Date(Date.now() + (UPLOAD_URL_TTL_SECONDS + FOLDER_CHECK_MARGIN_SECONDS) * 1000),
  });
  const lateObjects = await deletePrefix({ s3, bucket, prefix });
  return { deletedObjects: deletedObjects + lateObjects, deletedItems };
}
