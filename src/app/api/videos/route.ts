import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse, readJsonBody } from "@/server/http/respond";
import { CreateVideoUploadBody, createVideoUpload } from "@/server/videos/create-video-upload";
import { ListVideosQuery, listVideos } from "@/server/videos/list-videos";

export const dynamic = "force-dynamic";

// GET /api/videos?cursor=&limit= – the caller's videos, newest first, one page
export const GET = withCreator(async (request, { creatorId, runtime }) => {
  const search = new URL(request.url).searchParams;
  const query = ListVideosQuery.parse(
    Object.fromEntries([...search.entries()].filter(([, value]) => value !== "")),
  );
  return jsonResponse(await listVideos({ runtime, creatorId, cursor: query.cursor, limit: query.limit }));
});

// POST /api/videos – start an upload: the video (UPLOADING) and presigned upload instructions
export const POST = withCreator(async (request, { creatorId, runtime }) => {
  const body = await readJsonBody(request, CreateVideoUploadBody);
  return jsonResponse(await createVideoUpload({ runtime, creatorId, body }), 201);
});
