import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/page-header";
import { VideosScreen } from "@/components/videos/videos-screen";
import { DEFAULT_CLIP_OPTIONS } from "@/engine/clip-options";
import { formatLimitBytes } from "@/lib/format-bytes";
import { requireCurrentCreator } from "@/server/auth/get-current-creator";
import { getRuntime } from "@/server/runtime";
import { listVideos } from "@/server/videos/list-videos";

export const metadata: Metadata = { title: "Videos" };
export const dynamic = "force-dynamic";

export default async function VideosPage() {
  const { creatorId } = await requireCurrentCreator();
  const runtime = getRuntime();
  const { videos, nextCursor } = await listVideos({ runtime, creatorId });
  return (
    <>
      <PageHeader
        title="Videos"
        description="Upload long videos; Truss finds their best moments and cuts them into vertical clips."
      />
      <VideosScreen
        initialVideos={videos}
        initialCursor={nextCursor}
        maxSizeText={formatLimitBytes(runtime.config.uploads.maxBytes)}
        defaultClipOptions={DEFAULT_CLIP_OPTIONS}
      />
    </>
  );
}
