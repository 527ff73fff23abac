import { withCreator } from "@/server/auth/with-creator";
import { wholeNumberParam } from "@/server/http/query-params";
import { readJsonBody } from "@/server/http/respond";
import { RecordUploadPartBody, recordUploadedPart } from "@/server/videos/record-upload-part";

export const dynamic = "force-dynamic";

const PartNumber = wholeNumberParam(1, 10_000);

// PUT /api/videos/{id}/upload-parts/{n} – record that part n is stored (its ETag), for resuming
export const PUT = withCreator<{ videoId: string; partNumber: string }>(
  async (request, { creatorId, runtime }, { videoId, partNumber }) => {
    const body = await readJsonBody(request, RecordUploadPartBody);
    await recordUploadedPart({
      runtime,
      creatorId,
      videoId,
      partNumber: PartNumber.parse(partNumber),
      etag: body.etag,
    });
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  },
);
