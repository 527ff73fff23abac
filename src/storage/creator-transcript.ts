import { parseSubtitles } from "@/engine/captions/parse-subtitles";
import type { TranscriptSegment } from "@/engine/types";
import { type Bucket, readTextObject } from "@/storage/object-io";
import { captionsObjectKey } from "@/storage/object-keys";

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

/**
 * What a clip's captions show: the creator's subtitle file when the video has one (read at
 * render time, so a file given, replaced or removed after the analysis counts), else the
 * transcript the analysis generated (Gemini's), if any.
 */
export async function captionsTranscript(
  options: Parameters<typeof readCreatorTranscript>[0] & { generated: TranscriptSegment[] | undefined },
): Promise<TranscriptSegment[] | undefined> {
  const { generated, ...ref } = options;
  return (await readCreatorTranscript(ref)) ?? (generated && generated.length > 0 ? generated : undefined);
}
