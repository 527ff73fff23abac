import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse, readJsonBody } from "@/server/http/respond";
import { deleteVideo } from "@/server/videos/delete-video";
import { getVideo } from "@/server/videos/get-video";
import { RecutVideoBody, recutVideo } from "@/server/videos/recut-video";

export const dynamic = "force-dynamic";

type Params = { videoId: string };

// GET /api/videos/{id} – status, stage, progress, metadata, chapters and clips
export const GET = withCreator<Params>(async (_request, { creatorId, runtime }, { videoId }) =>
  jsonResponse(await getVideo({ runtime, creatorId, videoId })),
);

// PATCH /api/videos/{id} – ask a ready video for other clips ({ clipOptions }); 202, QUEUED again
export const PATCH = withCreator<Params>(async (request, { creatorId, runtime }, { videoId }) => {
  const body = await readJsonBody(request, RecutVideoBody);
  return jsonResponse(await recutVideo({ runtime, creatorId, videoId, body }), 202);
});

// DELETE /api/videos/{id} – delete the video, its objects and items (also cancels an upload)
export const DELETE = withCreator<Params>(async (_request, { creatorId, runtime }, { videoId }) => {
  await deleteVideo({ runtime, creatorId, videoId });
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
});
