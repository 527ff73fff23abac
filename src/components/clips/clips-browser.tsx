"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, ButtonLink } from "@/components/ui/button";
import { cx } from "@/components/ui/cx";
import { EmptyState } from "@/components/ui/empty-state";
import type { ClipSort } from "@/server/clips/list-clips";
import type { ClipView } from "@/server/clips/to-clip-view";
import { ClipTile } from "./clip-tile";
import { useClipPlayer } from "./use-clip-player";
import { useClipsPages } from "./use-clips-pages";
import { videoGroupsOf } from "./video-groups";

const MIN_SCORE_CHOICES = [
  { value: undefined, label: "Any score" },
  { value: 40, label: "40+" },
  { value: 60, label: "60+" },
  { value: 80, label: "80+" },
] as const;

/** Every clip the creator has, newest or best first, a page at a time ("Load more"). */
export function ClipsBrowser({
  sort,
  minScore,
  initialClips,
  initialCursor,
}: {
  sort: ClipSort;
  minScore: number | undefined;
  initialClips: ClipView[];
  initialCursor: string | null;
}) {
  const router = useRouter();
  const { clips, cursor, loading, error, setError, loadMore, announcement } = useClipsPages({
    sort,
    minScore,
    initialClips,
    initialCursor,
  });
  const { play, opening, dialog } = useClipPlayer(setError);
  const list = useRef<HTMLDivElement>(null);
  const [focusFirstOf, setFocusFirstOf] = useState<ReadonlySet<string> | null>(null);

  const show = (next: { sort: ClipSort; minScore?: number }) => {
    const search = new URLSearchParams({ sort: next.sort });
    if (next.minScore !== undefined) search.set("minScore", String(next.minScore));
    router.push(`/clips?${search.toString()}`);
  };

  const showMore = async () => {
    const added = await loadMore();
    if (added?.length) setFocusFirstOf(new Set(added.map((clip) => clip.clipId)));
  };

  // The Load more button goes (last page) or stays behind the new tiles: either way, keyboard
  // users go on from the first clip that came, in the order shown (in the newest order a cut
  // video's better clips come above the ones it had).
  useEffect(() => {
    if (!focusFirstOf) return;
    const tiles = list.current?.querySelectorAll<HTMLElement>("[data-clip-id]") ?? [];
    const first = [...tiles].find((tile) => focusFirstOf.has(tile.dataset.clipId ?? ""));
    // Its preview plays the clip; a clip not rendered yet has its video's link first.
    first?.querySelector<HTMLElement>("button:not(:disabled), a[href]")?.focus();
    setFocusFirstOf(null);
  }, [focusFirstOf]);

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:flex-row sm:items-center sm:justify-between">
        <fieldset className="inline-flex rounded-lg bg-slate-100 p-1">
          <legend className="sr-only">Order</legend>
          {(
            [
              ["newest", "Newest"],
              ["score", "Top score"],
            ] as const
          ).map(([value, label]) => (
            <button
              key={value}
              type="button"
              aria-pressed={sort === value}
              onClick={() => show({ sort: value, minScore: value === "score" ? minScore : undefined })}
              className={cx(
                "rounded-md px-3 py-1.5 text-sm font-medium transition-colors",
                sort === value ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900",
              )}
            >
              {label}
            </button>
          ))}
        </fieldset>
        <fieldset className="flex flex-wrap items-center gap-2">
          <legend className="sr-only">Minimum score</legend>
          <span className="text-sm text-slate-500" aria-hidden="true">
            Score
          </span>
          {MIN_SCORE_CHOICES.map((choice) => {
            const active = minScore === choice.value;
            return (
              <button
                key={choice.label}
                type="button"
                aria-pressed={active}
                onClick={() =>
                  show(choice.value === undefined ? { sort } : { sort: "score", minScore: choice.value })
                }
                className={cx(
                  "rounded-full px-3 py-1 text-sm font-medium ring-1 transition-colors ring-inset",
                  active
                    ? "bg-brand-600 text-white ring-brand-600"
                    : "bg-white text-slate-700 ring-slate-300 hover:bg-slate-50",
                )}
              >
                {choice.label}
              </button>
            );
          })}
        </fieldset>
      </div>

      {error && <Alert tone="danger">{error}</Alert>}
      <p role="status" className="sr-only">
        {announcement}
      </p>

      {clips.length === 0 ? (
        minScore !== undefined ? (
          <EmptyState
            title={`No clips score ${minScore} or more yet`}
            headingLevel={2}
            description="Lower the minimum score, or upload more videos: scores are comparable across all of them."
            action={
              <Button variant="secondary" onClick={() => show({ sort: "score" })}>
                Show every score
              </Button>
            }
          />
        ) : (
          <EmptyState
            title="No clips yet"
            headingLevel={2}
            description="Upload a long video: Truss finds its best moments, scores them and cuts them into 9:16 clips."
            action={<ButtonLink href="/videos">Upload a video</ButtonLink>}
          />
        )
      ) : sort === "newest" ? (
        <div ref={list} className="flex flex-col gap-10">
          {videoGroupsOf(clips, cursor !== null).map((group) => (
            <section key={group.videoId} aria-label={group.videoTitle} className="flex flex-col gap-3">
              <div className="flex items-baseline justify-between gap-4 border-b border-slate-200 pb-2">
                <h2
                  className="line-clamp-2 min-w-0 text-base font-semibold wrap-anywhere text-slate-900"
                  title={group.videoTitle}
                >
                  {group.videoTitle}
                </h2>
                <Link
                  href={`/videos/${group.videoId}`}
                  className="shrink-0 text-sm font-medium text-brand-700 hover:underline"
                >
                  Open video →
                </Link>
              </div>
              {!group.complete && (
                <p className="text-sm text-slate-600">
                  More clips from this video are on the next page. Their places (#1 = best) show once all of
                  them are loaded.
                </p>
              )}
              <div className={gridClasses(opening)}>
                {group.clips.map((clip, index) => (
                  // A place in a cut video would change as its better clips load: none until it is whole.
                  <ClipTile
                    key={clip.clipId}
                    clip={clip}
                    place={group.complete ? index + 1 : null}
                    onPlay={play}
                  />
                ))}
              </div>
            </section>
          ))}
        </div>
      ) : (
        <div ref={list} className={gridClasses(opening)}>
          {clips.map((clip, index) => (
            <ClipTile key={clip.clipId} clip={clip} place={index + 1} onPlay={play} />
          ))}
        </div>
      )}

      {cursor && (
        <div className="flex justify-center">
          <Button variant="secondary" onClick={showMore} loading={loading}>
            Load more
          </Button>
        </div>
      )}

      {dialog}
    </div>
  );
}

const gridClasses = (opening: string | null) =>
  cx(
    "grid grid-cols-2 gap-x-4 gap-y-6 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5",
    opening && "cursor-progress",
  );
