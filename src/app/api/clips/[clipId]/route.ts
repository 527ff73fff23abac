import { z } from "zod";
import { withCreator } from "@/server/auth/with-creator";
import { getClip } from "@/server/clips/get-clip";
import { updateClipRange } from "@/server/clips/update-clip-range";
import { jsonResponse, readJsonBody } from "@/server/http/respond";

export const dynamic = "force-dynamic";

const seconds = z.number().finite().nonnegative();

const UpdateClipBody = z
  .object({
    startSeconds: seconds,
    endSeconds: seconds,
    /** The clip's `version` the edit was based on; a newer clip answers 409. */
    expectedVersion: z.number().int().positive().optional(),
  })
  .strict()
  .refine((body) => body.endSeconds > body.startSeconds, {
    message: "endSeconds must be after startSeconds",
    path: ["endSeconds"],
  });

// GET /api/clips/:clipId – one of the caller's clips, with short-lived media URLs (404 if not theirs)
export const GET = withCreator<{ clipId: string }>(async (_request, { creatorId, runtime }, { clipId }) => {
  const clip = await getClip({ runtime, creatorId, clipId });
  return jsonResponse({ clip });
});

// PATCH /api/clips/:clipId – new {startSeconds, endSeconds[, expectedVersion]}; re-renders, 202 with the clip
export const PATCH = withCreator<{ clipId: string }>(async (request, { creatorId, runtime }, { clipId }) => {
  const body = await readJsonBody(request, UpdateClipBody, 4 * 1024);
  const clip = await updateClipRange({ runtime, creatorId, clipId, ...body });
  // 202 while the new range renders; 200 when nothing was left to do.
  return jsonResponse({ clip }, clip.status === "READY" ? 200 : 202);
});
