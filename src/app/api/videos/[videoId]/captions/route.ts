import { z } from "zod";
import { MAX_SUBTITLE_FILE_BYTES } from "@/engine/captions/parse-subtitles";
import { withCreator } from "@/server/auth/with-creator";
import { jsonResponse, readJsonBody } from "@/server/http/respond";
import { removeVideoCaptions, setVideoCaptions } from "@/server/videos/video-captions";

export const dynamic = "force-dynamic";

type Params = { videoId: string };

const CaptionsBody = z
  .object({
    /** The file's name as the creator picked it, for display. */
    fileName: z.string().trim().min(1).max(200),
    /** The SRT or WebVTT file's text (an empty one is refused by name in setVideoCaptions). */
    text: z.string(),
  })
  .strict();

// PUT /api/videos/{id}/captions – {fileName, text}: an SRT/VTT file burned into the clips; re-renders them
export const PUT = withCreator<Params>(async (request, { creatorId, runtime }, { videoId }) => {
  // JSON escaping can double a file's size; the text itself is held to the limit.
  const body = await readJsonBody(request, CaptionsBody, 2 * MAX_SUBTITLE_FILE_BYTES);
  return jsonResponse(await setVideoCaptions({ runtime, creatorId, videoId, ...body }));
});

// DELETE /api/videos/{id}/captions – remove the file; the clips re-render without it
export const DELETE = withCreator<Params>(async (_request, { creatorId, runtime }, { videoId }) =>
  jsonResponse(await removeVideoCaptions({ runtime, creatorId, videoId })),
);
