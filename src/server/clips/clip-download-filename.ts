import type { Clip, ClipRender } from "@/db/repos/clip-repo";
import { formatTimestamp } from "@/engine/format-timestamp";

/** The source video's part: enough to tell videos apart, short enough to leave room for the clip's. */
const MAX_VIDEO_SLUG_CHARS = 32;
const MAX_TITLE_SLUG_CHARS = 48;

/**
 * `<video>-clip-<rank>-<title>.mp4`, e.g. `planted-150s-clip-1-loud-burst-at-0-15.mp4`: the
 * source video's name (without its extension) first, so clip #1 of two videos saves under two
 * names and a folder of downloads sorts by video. Lowercase ASCII letters, digits and hyphens
 * only, so every platform's uploader accepts it, and at most ~100 characters.
 */
export function clipDownloadFilename(
  clip: Pick<Clip, "videoTitle" | "ordinal" | "title" | "startSeconds" | "endSeconds">,
  render?: Pick<ClipRender, "startSeconds" | "endSeconds">,
): string {
  const video = slugOf(withoutExtension(clip.videoTitle), MAX_VIDEO_SLUG_CHARS);
  // A render of an earlier range (its re-render under way) is named for what it shows: the
  // clip's title was given to the new range, and two versions must not share a name.
  const isEarlierRange =
    render !== undefined &&
    (render.startSeconds !== clip.startSeconds || render.endSeconds !== clip.endSeconds);
  const title = isEarlierRange
    ? slugOf(
        `${formatTimestamp(render.startSeconds)} to ${formatTimestamp(render.endSeconds)}`,
        MAX_TITLE_SLUG_CHARS,
      )
    : slugOf(clip.title, MAX_TITLE_SLUG_CHARS);
  const stem = [video, `clip-${clip.ordinal + 1}`, title].filter(Boolean).join("-");
  return `${stem}.mp4`;
}

/** Video titles are the uploaded file's name: `talk.final.mp4` reads as `talk.final`. */
const withoutExtension = (name: string) => name.replace(/\.[a-z0-9]{1,5}$/i, "");

/**
 * Lowercase words joined by single hyphens (a time's colons too: `2:14` → `2-14`), accents
 * dropped, cut at a word where it can be.
 */
function slugOf(text: string, maxChars: number): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9\s._:-]/g, "")
    .replace(/[\s._:-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= maxChars) return slug;
  const cut = slug.slice(0, maxChars + 1);
  const lastBreak = cut.lastIndexOf("-");
  // A word longer than half the room is cut inside rather than dropped whole.
  return (lastBreak > maxChars / 2 ? cut.slice(0, lastBreak) : slug.slice(0, maxChars)).replace(/-+$/, "");
}
