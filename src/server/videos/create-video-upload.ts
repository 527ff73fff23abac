import "server-only";
import { z } from "zod";
import { createVideo } from "@/db/repos/video-repo";
import { ClipOptionsInput } from "@/engine/clip-options";
import { describeSizeOverLimit } from "@/lib/format-bytes";
import { createId } from "@/lib/ids";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { createMultipartUpload } from "@/storage/multipart";
import { sourceObjectKey } from "@/storage/object-keys";
import { planUpload } from "@/storage/plan-upload";
import { checkDeclaredVideoFile, displayFilename } from "./accepted-video-formats";
import { toVideoView, type VideoView } from "./to-video-view";
import {
  PART_URLS_PER_BATCH,
  signParts,
  signSingleUpload,
  type UploadInstructions,
} from "./upload-instructions";

export const CreateVideoUploadBody = z
  .object({
    filename: z.string().min(1).max(1024),
    contentType: z.string().max(200),
    sizeBytes: z.number().int().positive(),
    clipOptions: ClipOptionsInput.optional(),
  })
  .strict();
export type CreateVideoUploadBody = z.infer<typeof CreateVideoUploadBody>;

/**
 * Starts an upload: checks the declared file, creates the video (UPLOADING) and returns how to
 * send the bytes — one presigned PUT up to the multipart threshold, otherwise a multipart
 * upload with the first part URLs. The storage key comes from the ids, never the file name.
 */
export async function createVideoUpload(options: {
  runtime: Runtime;
  creatorId: string;
  body: CreateVideoUploadBody;
}): Promise<{ video: VideoView; upload: UploadInstructions }> {
  const { runtime, creatorId, body } = options;
  const { uploads } = runtime.config;
  const filename = displayFilename(body.filename);
  const { contentType } = checkDeclaredVideoFile({ filename, contentType: body.contentType });
  if (body.sizeBytes > uploads.maxBytes) {
    throw new AppError(
      "payload_too_large",
      describeSizeOverLimit("This file", body.sizeBytes, uploads.maxBytes),
    );
  }
  const plan = planUpload({
    sizeBytes: body.sizeBytes,
    multipartThresholdBytes: uploads.multipartThresholdBytes,
    partSizeBytes: uploads.partSizeBytes,
  });
  const videoId = createId("video");
  const sourceKey = sourceObjectKey(creatorId, videoId);
  const uploadId =
    plan.kind === "multipart"
      ? await createMultipartUpload({
          s3: runtime.clients.s3,
          bucket: runtime.config.aws.bucketName,
          key: sourceKey,
          contentType,
        })
      : null;
  const video = await createVideo({
    table: tableOf(runtime),
    video: {
      creatorId,
      videoId,
      origin: "upload",
      filename,
      declaredContentType: contentType,
      declaredSizeBytes: body.sizeBytes,
      importUrl: null,
      sourceKey,
      uploadKind: plan.kind,
      uploadId,
      partSizeBytes: plan.kind === "multipart" ? plan.partSizeBytes : null,
      partCount: plan.kind === "multipart" ? plan.partCount : null,
      stage: "uploading",
      clipOptions: body.clipOptions,
    },
  });
  const upload: UploadInstructions =
    plan.kind === "single"
      ? await signSingleUpload(runtime, video)
      : {
          kind: "multipart",
          uploadId: uploadId ?? "",
          partSizeBytes: plan.partSizeBytes,
          partCount: plan.partCount,
          parts: await signParts(
            runtime,
            video,
            Array.from({ length: Math.min(PART_URLS_PER_BATCH, plan.partCount) }, (_, index) => index + 1),
          ),
        };
  return { video: await toVideoView(runtime, video), upload };
}
