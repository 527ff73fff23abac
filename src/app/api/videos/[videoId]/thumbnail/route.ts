import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse } from "@/server/http/respond";
import { getVideoThumbnailUrl } from "@/server/videos/get-video-thumbnail-url";

export const dynamic = "force-dynamic";

type Params = { videoId: string };

// GET /api/videos/{id}/thumbnail – a freshly signed URL of the video's thumbnail (null without one), for a list whose URL expired
export const GET = withCreator<Params>(async (_request, { creatorId, runtime }, { videoId }) =>
  jsonResponse({ thumbnail: await getVideoThumbnailUrl({ runtime, creatorId, videoId }) }),
);
