import { withCreator } from "@/server/auth/with-creator";
import { getClipDownloadUrl } from "@/server/clips/get-clip-download-url";
import { redirectResponse } from "@/server/http/respond";

export const dynamic = "force-dynamic";

// GET /api/clips/:clipId/download – 302 to a freshly signed URL that saves the newest render (404 if not theirs, 409 before the first render)
export const GET = withCreator<{ clipId: string }>(async (_request, { creatorId, runtime }, { clipId }) =>
  redirectResponse(await getClipDownloadUrl({ runtime, creatorId, clipId })),
);
