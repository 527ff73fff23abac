import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse, readJsonBody } from "@/server/http/respond";
import { ImportVideoBody, importVideoFromUrl } from "@/server/videos/import-video-from-url";

export const dynamic = "force-dynamic";

// POST /api/videos/import – queue the import of a direct media URL (202)
export const POST = withCreator(async (request, { creatorId, runtime }) => {
  const body = await readJsonBody(request, ImportVideoBody);
  return jsonResponse(
    await importVideoFromUrl({ runtime, creatorId, url: body.url, clipOptions: body.clipOptions }),
    202,
  );
});
