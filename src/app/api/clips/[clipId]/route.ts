import { z } from "zod";
import { LAYOUT_CHOICES } from "@/engine/types";
import { withCreator } from "@/server/auth/with-creator";
import { deleteClip } from "@/server/clips/delete-clip";
import { editClip } from "@/server/clips/edit-clip";
import { getClip } from "@/server/clips/get-clip";
import { jsonResponse, readJsonBody } from "@/server/http/respond";

export const dynamic = "force-dynamic";

const seconds = z.number().finite().nonnegative();

const EditClipBody = z
  .object({
    startSeconds: seconds.optional(),
    endSeconds: seconds.optional(),
    layout: z.enum(LAYOUT_CHOICES).optional(),
    /** The clip's `version` the edit was based on; a newer clip answers 409. */
    expectedVersion: z.number().int().positive().optional(),
  })
  .strict()
  .refine((body) => body.startSeconds !== undefined || body.endSeconds !== undefined || body.layout, {
    message: "Send startSeconds, endSeconds or layout",
  });

// GET /api/clips/:clipId – one of the caller's clips, with short-lived media URLs (404 if not theirs)
export const GET = withCreator<{ clipId: string }>(async (_request, { creatorId, runtime }, { clipId }) => {
  const clip = await getClip({ runtime, creatorId, clipId });
  return jsonResponse({ clip });
});

// PATCH /api/clips/:clipId – any of {startSeconds, endSeconds, layout}[, expectedVersion]; re-renders, 202 with the clip
export const PATCH = withCreator<{ clipId: string }>(async (request, { creatorId, runtime }, { clipId }) => {
  const { layout, ...body } = await readJsonBody(request, EditClipBody, 4 * 1024);
  const clip = await editClip({ runtime, creatorId, clipId, ...body, layoutChoice: layout });
  // 202 while the edited clip renders; 200 when nothing was left to do.
  return jsonResponse({ clip }, clip.status === "READY" ? 200 : 202);
});

// DELETE /api/clips/:clipId – discards one of a ready video's clips with its render; 204 (404 if not theirs, 409 while processing)
export const DELETE = withCreator<{ clipId: string }>(
  async (_request, { creatorId, runtime }, { clipId }) => {
    await deleteClip({ runtime, creatorId, clipId });
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  },
);
