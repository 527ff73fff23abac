import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse } from "@/server/http/respond";
import { getVideoSourceUrl } from "@/server/videos/get-video-source-url";

export const dynamic = "force-dynamic";

type Params = { videoId: string };

// GET /api/videos/{id}/source – a freshly signed URL of the uploaded source file, for a player whose URL expired
export const GET = withCreator<Params>(async (_request, { creatorId, runtime }, { videoId }) =>
  jsonResponse({ source: await getVideoSourceUrl({ runtime, creatorId, videoId }) }),
);
