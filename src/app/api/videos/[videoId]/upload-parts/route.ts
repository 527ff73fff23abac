import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse, readJsonBody } from "@/server/http/respond";
import { SignUploadPartsBody, signUploadParts } from "@/server/videos/sign-upload-parts";

export const dynamic = "force-dynamic";

// POST /api/videos/{id}/upload-parts – presigned URLs for more parts of a multipart upload
export const POST = withCreator<{ videoId: string }>(async (request, { creatorId, runtime }, { videoId }) => {
  const body = await readJsonBody(request, SignUploadPartsBody);
  return jsonResponse(await signUploadParts({ runtime, creatorId, videoId, partNumbers: body.partNumbers }));
});
