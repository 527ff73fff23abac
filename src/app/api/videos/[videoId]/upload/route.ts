import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse } from "@/server/http/respond";
import { resumeVideoUpload } from "@/server/videos/resume-video-upload";

export const dynamic = "force-dynamic";

// GET /api/videos/{id}/upload – resume an interrupted upload: parts stored, URLs for the rest
export const GET = withCreator<{ videoId: string }>(async (_request, { creatorId, runtime }, { videoId }) =>
  jsonResponse(await resumeVideoUpload({ runtime, creatorId, videoId })),
);
