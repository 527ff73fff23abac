import { z } from "zod";
import { withCreator } from "@/server/auth/with-creator";
import { wholeNumberParam } from "@/server/http/query-params";
import { readJsonBody } from "@/server/http/respond";
import { RecordUploadPartBody, recordUploadedPart } from "@/server/videos/record-upload-part";

export const dynamic = "force-dynamic";

// In an object, so a refusal names the part number rather than "body".
const PathParams = z.object({ partNumber: wholeNumberParam(1, 10_000) });

// PUT /api/videos/{id}/upload-parts/{n} – record that part n is stored (its ETag), for resuming
export const PUT = withCreator<{ videoId: string; partNumber: string }>(
  async (request, { creatorId, runtime }, { videoId, partNumber }) => {
    const path = PathParams.parse({ partNumber });
    const body = await readJsonBody(request, RecordUploadPartBody);
    await recordUploadedPart({
      runtime,
      creatorId,
      videoId,
      partNumber: path.partNumber,
      etag: body.etag,
    });
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  },
);
