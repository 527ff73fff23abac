import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse, readJsonBody } from "@/server/http/respond";
import { CompleteVideoUploadBody, completeVideoUpload } from "@/server/videos/complete-video-upload";

export const dynamic = "force-dynamic";

/** 10,000 part ETags fit in well under a megabyte. */
const MAX_COMPLETE_BODY_BYTES = 1024 * 1024;

// POST /api/videos/{id}/upload-complete – the bytes are up: verify, then queue ingest (202)
export const POST = withCreator<{ videoId: string }>(async (request, { creatorId, runtime }, { videoId }) => {
  const body = await readJsonBody(request, CompleteVideoUploadBody, MAX_COMPLETE_BODY_BYTES);
  return jsonResponse(await completeVideoUpload({ runtime, creatorId, videoId, body }), 202);
});
