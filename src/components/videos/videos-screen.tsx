"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Card, CardBody } from "@/components/ui/card";
import type { ClipOptions } from "@/engine/clip-options";
import { readRememberedClipOptions, rememberClipOptions } from "./clip-options-choices";
import { ClipOptionsPicker } from "./clip-options-picker";
import { browserStore } from "./file-identity";
import { ImportUrlForm } from "./import-url-form";
import { UploadDropzone } from "./upload-dropzone";
import { UploadList } from "./upload-list";
import { useUploads } from "./uploads-provider";
import { useVideoLibrary } from "./use-video-library";
import type { VideoView } from "./video-api";
import { VideoLibrary } from "./video-library";

/** The /videos page: upload (drop, pick or import), uploads in progress, and the library. */
export function VideosScreen({
  initialVideos,
  initialCursor,
  maxSizeText,
  defaultClipOptions,
}: {
  initialVideos: VideoView[];
  initialCursor: string | null;
  maxSizeText: string;
  defaultClipOptions: ClipOptions;
}) {
  const [clipOptions, setClipOptions] = useState(defaultClipOptions);
  // Read after hydration: the server renders the defaults, knowing nothing of this browser.
  useEffect(() => {
    setClipOptions(readRememberedClipOptions(browserStore(), defaultClipOptions));
  }, [defaultClipOptions]);
  const chooseClipOptions = (next: ClipOptions) => {
    setClipOptions(next);
    rememberClipOptions(browserStore(), next);
  };
  // The library is created after the uploads hook; route its refresh through a ref.
  const refreshRef = useRef<() => void>(() => {});
  const onVideoChanged = useCallback(() => refreshRef.current(), []);
  // The tab's uploads (they outlive this page: see UploadsProvider); back here, their rows show.
  const uploads = useUploads(onVideoChanged);
  const library = useVideoLibrary({
    initialVideos,
    initialCursor,
    uploadsActive: uploads.active,
    uploadingHere: uploads.uploadsByVideo,
  });
  refreshRef.current = () => void library.refresh();
  // A deleted video leaves the upload panel too, so no row there speaks of it any more.
  const deleteVideo = useCallback(
    async (videoId: string) => {
      await library.remove(videoId);
      uploads.dismissVideo(videoId);
    },
    [library.remove, uploads.dismissVideo],
  );
  // The import form's video joins the library at once, marked, so the creator sees where it went.
  const [importedVideoId, setImportedVideoId] = useState<string | null>(null);
  const showImportedVideo = useCallback(
    (videoId: string) => {
      setImportedVideoId(videoId);
      onVideoChanged();
    },
    [onVideoChanged],
  );
  const libraryHeading = useRef<HTMLHeadingElement>(null);
  // The upload panel reads a finished upload's outcome (checked, failed…) from the library.
  const libraryVideos = useMemo(
    () => new Map(library.videos.map((video) => [video.id, video])),
    [library.videos],
  );

  return (
    <div className="flex flex-col gap-8">
      <Card>
        <CardBody className="flex flex-col gap-6">
          <ClipOptionsPicker
            value={clipOptions}
            defaults={defaultClipOptions}
            onChange={chooseClipOptions}
            note="Fewer when fewer moments stand out. Applies to the videos you add next."
          />
          <UploadDropzone
            onFiles={(files) => uploads.addFiles(files, clipOptions)}
            maxSizeText={maxSizeText}
          />
          <ImportUrlForm clipOptions={clipOptions} onImported={showImportedVideo} />
        </CardBody>
      </Card>
      <UploadList
        entries={uploads.entries}
        libraryVideos={libraryVideos}
        onCancel={uploads.cancel}
        onRetry={uploads.retry}
        onDismiss={uploads.dismiss}
      />
      <section aria-labelledby="library-heading" className="flex flex-col gap-4">
        {/* Takes the focus after a delete: the row whose button opened the dialog is gone. */}
        <h2
          id="library-heading"
          ref={libraryHeading}
          tabIndex={-1}
          className="text-base font-semibold text-slate-900 focus:outline-none"
        >
          Library
        </h2>
        <VideoLibrary
          videos={library.videos}
          uploadsByVideo={uploads.uploadsByVideo}
          highlightedVideoId={importedVideoId}
          hasMore={library.hasMore}
          loadingMore={library.loadingMore}
          onLoadMore={library.loadMore}
          onDelete={deleteVideo}
          focusAfterDelete={libraryHeading}
          error={library.error}
        />
      </section>
    </div>
  );
}
