import type { NewVideo } from "@/db/repos/video-repo";
import { createId } from "@/lib/ids";
import { sourceObjectKey } from "@/storage/object-keys";

/** For tests: a new video uploaded in one PUT to its source key (an MP4 of 20 MiB unless overridden). */
export function singleUploadVideo(creatorId: string, overrides: Partial<NewVideo> = {}): NewVideo {
  const videoId = overrides.videoId ?? createId("video");
  return {
    creatorId,
    videoId,
    origin: "upload",
    filename: "talk.mp4",
    declaredContentType: "video/mp4",
    declaredSizeBytes: 20 << 20,
    importUrl: null,
    sourceKey: sourceObjectKey(creatorId, videoId),
    uploadKind: "single",
    uploadId: null,
    partSizeBytes: null,
    partCount: null,
    ...overrides,
  };
}
