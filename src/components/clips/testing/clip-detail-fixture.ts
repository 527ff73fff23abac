import type { ClipDetail } from "@/server/clips/get-clip";

/** A signed download URL as a page loads it (it expires; links must not use it). */
const PAGE_LOAD_DOWNLOAD_URL =
  "http://localhost:8701/truss-media/clips/r0.mp4?response-content-disposition=attachment&X-Amz-Date=20260101T000000Z&X-Amz-Expires=900";

const READY_CLIP: ClipDetail = {
  clipId: "clip_01JZ8Q0000000000000000TEST",
  videoId: "video_01JZ8Q000000000000000TEST",
  videoTitle: "talk.mp4",
  rank: 1,
  title: "Wait for it",
  hookLine: null,
  score: 81,
  subscores: { hook: 81, audioEnergy: 70, visualDynamics: 20, speech: 50, chat: null },
  reasons: [],
  startSeconds: 10,
  endSeconds: 30,
  durationSeconds: 20,
  revision: 0,
  edited: false,
  layout: "auto",
  status: "READY",
  renderFailureReason: null,
  canRenderAgain: false,
  rendered: {
    revision: 0,
    startSeconds: 10,
    endSeconds: 30,
    durationSeconds: 20,
    layout: "crop",
    thumbnailUrl: "http://localhost:8701/truss-media/clips/r0.jpg?X-Amz-Date=20260101T000000Z",
    previewUrl: "http://localhost:8701/truss-media/clips/r0.webp?X-Amz-Date=20260101T000000Z",
    previewType: "image/webp",
    urlsExpireAt: "2026-01-01T00:15:00.000Z",
  },
  version: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  platformCopy: null,
  source: { durationSeconds: 120 },
  editLimits: { minSeconds: 3, maxSeconds: 180 },
  media: {
    videoUrl: "http://localhost:8701/truss-media/clips/r0.mp4?X-Amz-Date=20260101T000000Z&X-Amz-Expires=900",
    downloadUrl: PAGE_LOAD_DOWNLOAD_URL,
    expiresAt: "2026-01-01T00:15:00.000Z",
  },
};

/** A rendered clip as its video's page and the clip API give it, with the given changes. */
export function readyClipDetail(changes: Partial<ClipDetail> = {}): ClipDetail {
  return { ...READY_CLIP, ...changes };
}
