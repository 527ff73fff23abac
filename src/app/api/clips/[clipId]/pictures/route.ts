import { withCreator } from "@/server/auth/with-creator";
import { getClipPictureUrls } from "@/server/clips/get-clip-picture-urls";
import { jsonResponse } from "@/server/http/respond";

export const dynamic = "force-dynamic";

// GET /api/clips/:clipId/pictures – freshly signed thumbnail and preview URLs of the newest render (404 if not theirs, 409 before the first render)
export const GET = withCreator<{ clipId: string }>(async (_request, { creatorId, runtime }, { clipId }) =>
  jsonResponse({ pictures: await getClipPictureUrls({ runtime, creatorId, clipId }) }),
);
