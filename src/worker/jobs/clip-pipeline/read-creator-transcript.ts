import { parseSubtitles } from "@/engine/captions/parse-subtitles";
import type { TranscriptSegment } from "@/engine/types";
import { captionsObjectKey } from "@/storage/object-keys";
import { type Bucket, readTextObject } from "./object-io";

/**
 * The subtitles a creator uploaded for a video (SRT or VTT), as transcript segments; undefined
 * when there are none. A file that does not parse is reported through `log` and ignored: the
 * clips are still worth making, just without those captions.
 */
export async function readCreatorTranscript(
  options: Bucket & {
    creatorId: string;
    videoId: string;
    signal?: AbortSignal;
    log?: (message: string, details?: Record<string, unknown>) => void;
  },
): Promise<TranscriptSegment[] | undefined> {
  for (const format of ["srt", "vtt"] as const) {
    const text = await readTextObject({
      ...options,
      key: captionsObjectKey(options.creatorId, options.videoId, format),
    });
    if (text === undefined) continue;
    try {
      const segments = parseSubtitles(text);
      if (segments.length > 0) return segments;
    } catch (error) {
      options.log?.("the creator's subtitle file could not be read; rendering without it", {
        format,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return undefined;
}
