import os from "node:os";
import type { Video } from "@/db/repos/video-repo";
import { toneMapFilterFor } from "@/engine/render/render-capabilities";
import type { MediaProbe } from "@/engine/types";
import { grabSourceFrame } from "@/media/grab-source-frame";
import { type HttpHeaders, hideMediaInputNames } from "@/media/probe-args";
import type { Runtime } from "@/server/runtime";
import { writeObject } from "@/storage/object-io";
import { videoSourceFrameObjectKey } from "@/storage/object-keys";
import type { JobLog } from "../job-types";

/** One seek and one keyframe; a source that takes longer simply has no picture yet. */
const SOURCE_FRAME_TIMEOUT_MS = 30_000;
/** A tenth of the way in: past a title card or a fade from black, still where the video is. */
const SOURCE_FRAME_AT_SHARE = 0.1;

/**
 * A frame of a checked source, stored as the video's thumbnail so the library shows a picture
 * while the video waits for and goes through its analysis (minutes for a long one); its best
 * clip's thumbnail replaces it once there are clips. Read over the presigned URL the probe
 * used, a seek and one keyframe, not the file. The key, or null when there is no frame to
 * show (no video stream, a frame that would not decode, a slow read): a picture is worth a
 * second of ingest, never a failed one.
 */
export async function storeSourceFrame(options: {
  runtime: Runtime;
  video: Pick<Video, "creatorId" | "videoId">;
  sourceUrl: string;
  httpHeaders: HttpHeaders;
  probe: MediaProbe;
  ffmpegPath: string;
  signal?: AbortSignal;
  log: JobLog;
}): Promise<string | null> {
  const { runtime, video, probe, ffmpegPath, signal, log } = options;
  if (!probe.hasVideo) return null;
  try {
    const frame = await grabSourceFrame({
      ffmpegPath,
      input: options.sourceUrl,
      httpHeaders: options.httpHeaders,
      atSeconds: probe.durationSeconds * SOURCE_FRAME_AT_SHARE,
      // The worker's temporary directory keeps the LUT for its renders too.
      toneMapFilter: await toneMapFilterFor(probe.dynamicRange, ffmpegPath, os.tmpdir()),
      timeoutMs: SOURCE_FRAME_TIMEOUT_MS,
      signal,
    });
    if (!frame) {
      log("no frame of the source decoded for its thumbnail", { videoId: video.videoId });
      return null;
    }
    const key = videoSourceFrameObjectKey(video.creatorId, video.videoId);
    await writeObject({
      s3: runtime.clients.s3,
      bucket: runtime.config.aws.bucketName,
      key,
      body: frame,
      contentType: "image/jpeg",
      signal,
    });
    return key;
  } catch (error) {
    if (signal?.aborted) throw error;
    log("no thumbnail from the source", {
      videoId: video.videoId,
      // ffmpeg's lines name its input: a presigned URL, which a log must not carry.
      reason: hideMediaInputNames(error instanceof Error ? error.message : String(error), "the source"),
    });
    return null;
  }
}
