import type { Metadata } from "next";
import Link from "next/link";
import { TopClips } from "@/components/clips/top-clips";
import { ActivityCard } from "@/components/dashboard/activity-card";
import { ButtonLink } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { RecentVideos } from "@/components/videos/recent-videos";
import { VideoIcon } from "@/components/videos/video-links";
import { VideosAutoRefresh } from "@/components/videos/videos-auto-refresh";
import { formatLength } from "@/lib/format-length";
import { requireCurrentCreator } from "@/server/auth/get-current-creator";
import { listClips } from "@/server/clips/list-clips";
import { getRecentActivity } from "@/server/dashboard/get-recent-activity";
import { getRuntime } from "@/server/runtime";
import { listVideos } from "@/server/videos/list-videos";

export const metadata: Metadata = { title: "Dashboard" };
export const dynamic = "force-dynamic";

type SetupProgress = { hasVideos: boolean; hasClips: boolean };
type UploadLimits = { maxDurationSeconds: number };

/** Each step is ticked off once the creator has done it: a video uploaded, a clip made. */
const STEPS: {
  title: string;
  body: (limits: UploadLimits) => string;
  href: string;
  isDone: (progress: SetupProgress) => boolean;
}[] = [
  {
    title: "Upload a long video",
    body: ({ maxDurationSeconds }) =>
      `A stream VOD, podcast or talk — up to ${formatLength(maxDurationSeconds)}.`,
    href: "/videos",
    isDone: (progress) => progress.hasVideos,
  },
  {
    title: "Review ranked clips",
    body: () => "Each clip has a virality score and the reasons behind it.",
    href: "/clips",
    isDone: (progress) => progress.hasClips,
  },
];

/** Videos and clips the dashboard shows; the rest are on the videos and clips pages. */
const RECENT_VIDEO_COUNT = 5;
const TOP_CLIP_COUNT = 5;

export default async function DashboardPage() {
  const creator = await requireCurrentCreator();
  const runtime = getRuntime();
  const { creatorId } = creator;
  // One Query each: the newest videos, the best clips from the score-ranked items, and the
  // last days' counters.
  const [{ videos }, { clips }, activity] = await Promise.all([
    listVideos({ runtime, creatorId, limit: RECENT_VIDEO_COUNT }),
    listClips({ runtime, creatorId, sort: "score", limit: TOP_CLIP_COUNT }),
    getRecentActivity({ runtime, creatorId, timeZone: creator.timezone }),
  ]);
  const greetingName = creator.displayName ?? creator.email.split("@")[0];
  const progress: SetupProgress = { hasVideos: videos.length > 0, hasClips: clips.length > 0 };
  const stepsDone = STEPS.map((step) => step.isDone(progress));
  return (
    <>
      <PageHeader
        title={`Welcome, ${greetingName}`}
        description="Your newest videos, how far along each one is, and your best clips."
        actions={<ButtonLink href="/videos">Upload a video</ButtonLink>}
      />
      <div className="flex flex-col gap-6">
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <div className="lg:col-span-2">
            {videos.length > 0 ? (
              <RecentVideos videos={videos} />
            ) : (
              <EmptyState
                icon={<VideoIcon className="h-6 w-6" />}
                title="No videos yet — upload one"
                headingLevel={2}
                description="Truss finds the best moments in a long video and cuts them into vertical clips ready to post."
                action={<ButtonLink href="/videos">Upload a video</ButtonLink>}
                className="h-full"
              />
            )}
          </div>
          {/* Once both steps are done, the card shows what has been made lately instead. */}
          {stepsDone.every(Boolean) ? (
            <ActivityCard activity={activity} />
          ) : (
            <Card>
              <CardHeader title="Getting started" description="Two steps to your first clips." />
              <CardBody className="py-2">
                <ol className="divide-y divide-slate-100">
                  {STEPS.map((step, index) => (
                    <li key={step.href}>
                      <Link href={step.href} className="group flex gap-3 py-3">
                        <span
                          className={`grid h-6 w-6 shrink-0 place-items-center rounded-full text-xs font-semibold ${
                            stepsDone[index]
                              ? "bg-emerald-50 text-emerald-700"
                              : "bg-slate-100 text-slate-600 group-hover:bg-brand-50 group-hover:text-brand-700"
                          }`}
                        >
                          {stepsDone[index] ? (
                            <>
                              <span aria-hidden="true">✓</span>
                              <span className="sr-only">Done:</span>
                            </>
                          ) : (
                            index + 1
                          )}
                        </span>
                        <span>
                          <span className="block text-sm font-medium text-slate-900 group-hover:text-brand-700">
                            {step.title}
                          </span>
                          <span className="block text-sm text-slate-500">
                            {step.body(runtime.config.uploads)}
                          </span>
                        </span>
                      </Link>
                    </li>
                  ))}
                </ol>
              </CardBody>
            </Card>
          )}
        </div>
        {clips.length > 0 && <TopClips clips={clips} />}
      </div>
      {/* Progress moves on its own while a video is processed; its clips join the top ones. */}
      <VideosAutoRefresh videos={videos.map(({ id, status, origin }) => ({ id, status, origin }))} />
    </>
  );
}
