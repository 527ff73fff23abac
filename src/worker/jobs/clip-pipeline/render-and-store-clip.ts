import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import {
  type Clip,
  findClipById,
  markClipRendered,
  renderObjectKeys,
  setClipRenderStatus,
} from "@/db/repos/clip-repo";
import type { Table } from "@/db/table";
import { renderClip, renderHintsFrom } from "@/engine/render/render-clip";
import type { MediaProbe, SignalCurve, TranscriptSegment } from "@/engine/types";
import type { MediaBinaries } from "@/media/ffmpeg-binaries";
import type { HttpHeaders } from "@/media/probe-args";
import { AppError } from "@/server/errors";
import { type Bucket, contentTypeOf, deleteObjects, uploadFile } from "@/storage/object-io";
import { clipRenderObjectKey } from "@/storage/object-keys";
import type { JobLog } from "../../job-types";
import { renderSlot } from "../../render-slot";

export type RenderOutcome = "rendered" | "stale";

/**
 * How often a running render checks that its revision is still the clip's current one. Renders
 * take one at a time (render-slot.ts): one a newer edit overtook would otherwise hold up that
 * edit's render for as long as it takes to finish (minutes for a long clip), only to be thrown
 * away. One consistent GetItem per interval.
 */
const OVERTAKEN_CHECK_MS = 3_000;

export type RenderAndStoreOptions = {
  table: Table;
  storage: Bucket;
  creatorId: string;
  clip: Clip;
  /** A local file, or a URL ffmpeg reads in ranges with `sourceHttpHeaders` on every request. */
  sourcePath: string;
  sourceHttpHeaders?: HttpHeaders;
  /** The ffmpeg/ffprobe the worker resolved from config (FFMPEG_PATH, FFPROBE_PATH). */
  binaries: MediaBinaries;
  probe: MediaProbe;
  /** The source's stored signal curve: scene cuts, motion and keyframes steer the crop. */
  signals: SignalCurve | undefined;
  transcript?: TranscriptSegment[];
  /** A directory this call may fill; the clip's outputs go to a subdirectory it removes. */
  workDir: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
  /** The job's log: the render's decisions (layout, how the subject was sampled) go there. */
  log: JobLog;
};

/**
 * Renders the current revision of one clip, uploads the video, thumbnail and preview under
 * that revision's keys and marks the clip READY. The previous render's objects are deleted
 * only once the new render is recorded, so the clip always has something to show. A render
 * overtaken by a newer range edit is discarded ("stale"), and one whose revision another job
 * rendered meanwhile is not started ("stale" too); one overtaken while it runs is stopped
 * (OVERTAKEN_CHECK_MS). Local outputs are removed either way.
 * One render runs at a time in a worker (render-slot.ts), whichever job asks.
 */
export function renderAndStoreClip(options: RenderAndStoreOptions): Promise<RenderOutcome> {
  // The clip shows RENDERING only once it holds the worker's render slot: while it waits it
  // stays PENDING, and the sweep does not mistake the wait for a stalled render.
  return renderSlot.run(() => renderAndStoreNow(options), options.signal);
}

async function renderAndStoreNow(options: RenderAndStoreOptions): Promise<RenderOutcome> {
  const { table, storage, creatorId, clip } = options;
  const { revision } = clip;
  const started = await setClipRenderStatus({
    table,
    creatorId,
    clipId: clip.clipId,
    revision,
    status: "RENDERING",
  });
  if (!started) return "stale";

  const outputDir = path.join(options.workDir, `${clip.clipId}-r${revision}`);
  await mkdir(outputDir, { recursive: true });
  const overtaken = new AbortController();
  const overtakenCheck = setInterval(() => {
    findClipById({ table, creatorId, clipId: clip.clipId, consistent: true })
      .then((current) => {
        // Gone (deleted with its video, or alone) or edited again: this render shows nothing.
        if (current?.revision !== revision) overtaken.abort();
      })
      // Unknown for now: the render carries on, and markClipRendered decides in the end.
      .catch(() => undefined);
  }, OVERTAKEN_CHECK_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, overtaken.signal]) : overtaken.signal;
  try {
    const rendered = await renderClip(
      {
        sourcePath: options.sourcePath,
        sourceHttpHeaders: options.sourceHttpHeaders,
        probe: options.probe,
        startSeconds: clip.startSeconds,
        endSeconds: clip.endSeconds,
        ...renderHintsFrom(options.signals),
        transcript: options.transcript && options.transcript.length > 0 ? options.transcript : undefined,
        layoutChoice: clip.layoutChoice,
        outputDir,
        baseName: `r${revision}`,
        signal,
        onProgress: options.onProgress,
      },
      {
        binaries: options.binaries,
        log: (message) => options.log(`render: ${message}`, { clipId: clip.clipId, revision }),
      },
    ).catch((error: unknown) => {
      if (!overtaken.signal.aborted || options.signal?.aborted) throw error;
      options.log("render overtaken by a newer edit; stopped", { clipId: clip.clipId, revision });
      return null;
    });
    // The uploads are short: from here markClipRendered decides whether this render lands.
    clearInterval(overtakenCheck);
    if (!rendered) return "stale";
    const keyOf = (kind: "video" | "thumbnail" | "preview") =>
      clipRenderObjectKey({
        creatorId,
        videoId: clip.videoId,
        clipId: clip.clipId,
        revision,
        kind,
        previewExtension: rendered.previewPath.endsWith(".mp4") ? "mp4" : "webp",
      });
    const uploads = [
      { key: keyOf("video"), filePath: rendered.videoPath },
      { key: keyOf("thumbnail"), filePath: rendered.thumbnailPath },
      { key: keyOf("preview"), filePath: rendered.previewPath },
    ];
    for (const upload of uploads) {
      await uploadFile({
        ...storage,
        ...upload,
        contentType: contentTypeOf(upload.filePath),
        signal: options.signal,
      });
    }
    const landed = await markClipRendered({
      table,
      creatorId,
      clipId: clip.clipId,
      render: {
        revision,
        videoKey: keyOf("video"),
        thumbnailKey: keyOf("thumbnail"),
        previewKey: keyOf("preview"),
        layout: rendered.layout,
        width: rendered.width,
        height: rendered.height,
        durationSeconds: rendered.durationSeconds,
        startSeconds: clip.startSeconds,
        endSeconds: clip.endSeconds,
      },
    }).catch((error: unknown) => {
      // The clip (with its video) was deleted while rendering: nothing to record.
      if (error instanceof AppError && error.code === "not_found") return null;
      throw error;
    });
    if (!landed) {
      await deleteObjects({ ...storage, keys: uploads.map((upload) => upload.key) });
      return "stale";
    }
    if (landed.replaced) {
      const current = new Set(uploads.map((upload) => upload.key));
      await deleteObjects({
        ...storage,
        keys: renderObjectKeys(landed.replaced).filter((key) => !current.has(key)),
      }).catch(() => {
        // Orphaned objects of an old revision cost a little storage and are removed with the video.
      });
    }
    return "rendered";
  } finally {
    clearInterval(overtakenCheck);
    await rm(outputDir, { recursive: true, force: true });
  }
}
