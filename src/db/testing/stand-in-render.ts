import type { ClipRender } from "@/db/repos/clip-repo";

/**
 * A render record for stand-in objects at `keys` (revision 0 unless given): a 1080×1920 fit of
 * the range, as a render job records one, for tests of what happens to rendered clips.
 */
export function standInRender(
  keys: Pick<ClipRender, "videoKey" | "thumbnailKey" | "previewKey">,
  range: { startSeconds: number; endSeconds: number },
  revision = 0,
): Omit<ClipRender, "renderedAt"> {
  return {
    revision,
    ...keys,
    layout: "fit",
    width: 1080,
    height: 1920,
    durationSeconds: range.endSeconds - range.startSeconds,
    startSeconds: range.startSeconds,
    endSeconds: range.endSeconds,
  };
}
