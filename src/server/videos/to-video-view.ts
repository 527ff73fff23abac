import type { Video } from "@/db/repos/video-repo";
import type { DynamicRange } from "@/media/dynamic-range";
import type { Runtime } from "@/server/runtime";
import { presignMediaUrl } from "@/storage/presign-media-url";

/**
 * What the API and the pages show of a video. Storage keys, upload ids and other bookkeeping
 * stay on the server; a thumbnail is a short-lived presigned URL.
 */
export type VideoMetadataView = {
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  rotationDegrees: number;
  videoCodec: string | null;
  audioCodec: string | null;
  bitrateBitsPerSecond: number | null;
  hasAudio: boolean;
  isVariableFrameRate: boolean;
  /** `hlg` or `pq` for HDR sources (their clips are tone-mapped to SDR), else `sdr`. */
  dynamicRange: DynamicRange;
  container: string;
};

export type VideoView = {
  id: string;
  status: Video["status"];
  stage: string | null;
  progressPercent: number;
  failureReason: string | null;
  origin: Video["origin"];
  filename: string;
  sizeBytes: number | null;
  metadata: VideoMetadataView | null;
  thumbnailUrl: string | null;
  clipCount: number;
  /** What the creator asked for: at most `count` clips of `minSeconds`–`maxSeconds`. */
  clipOptions: Video["clipOptions"];
  analysis: Video["analysis"];
  /** The creator's subtitle file, burned into the clips as captions; null without one. */
  captions: Video["captions"];
  createdAt: string;
  updatedAt: string;
  uploadedAt: string | null;
};

export async function toVideoView(runtime: Runtime, video: Video): Promise<VideoView> {
  const { probe } = video;
  return {
    id: video.videoId,
    status: video.status,
    stage: video.stage,
    progressPercent: video.progressPercent,
    failureReason: video.failureReason,
    origin: video.origin,
    filename: video.filename,
    sizeBytes: video.sourceSizeBytes ?? video.declaredSizeBytes,
    metadata: probe
      ? {
          durationSeconds: probe.durationSeconds,
          width: probe.width,
          height: probe.height,
          fps: probe.fps,
          rotationDegrees: probe.rotationDegrees,
          videoCodec: probe.videoCodec,
          audioCodec: probe.audioCodec,
          bitrateBitsPerSecond: probe.bitrateBitsPerSecond,
          hasAudio: probe.hasAudio,
          isVariableFrameRate: probe.isVariableFrameRate,
          dynamicRange: probe.dynamicRange,
          container: probe.formatName,
        }
      : null,
    thumbnailUrl: video.thumbnailKey
      ? (
          await presignMediaUrl({
            presigner: runtime.clients.s3Presigner,
            bucket: runtime.config.aws.bucketName,
            key: video.thumbnailKey,
          })
        ).url
      : null,
    clipCount: video.clipCount,
    clipOptions: video.clipOptions,
    analysis: video.analysis,
    captions: video.captions,
    createdAt: video.createdAt,
    updatedAt: video.updatedAt,
    uploadedAt: video.uploadedAt,
  };
}
