"use client";

import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cx } from "@/components/ui/cx";
import type { ClipView } from "@/server/clips/to-clip-view";
import { ClipTile } from "./clip-tile";
import { useClipPlayer } from "./use-clip-player";

/** The dashboard's best clips across every video, as 9:16 previews that play in place. */
export function TopClips({ clips }: { clips: ClipView[] }) {
  const [error, setError] = useState<string | null>(null);
  const { play, opening, dialog } = useClipPlayer(setError);
  return (
    <Card>
      <CardHeader
        title="Top clips"
        description="Your highest-scoring clips, across all your videos."
        actions={
          <Link href="/clips?sort=score" className="text-sm font-medium text-brand-700 hover:underline">
            All clips
          </Link>
        }
      />
      <CardBody className="flex flex-col gap-4">
        {error && <Alert tone="danger">{error}</Alert>}
        <ul
          aria-label="Top clips"
          className={cx(
            "grid grid-cols-2 gap-x-4 gap-y-6 sm:grid-cols-3 md:grid-cols-5",
            opening && "cursor-progress",
          )}
        >
          {clips.map((clip, index) => (
            <li key={clip.clipId} data-testid="top-clip">
              <ClipTile clip={clip} place={index + 1} onPlay={play} />
            </li>
          ))}
        </ul>
      </CardBody>
      {dialog}
    </Card>
  );
}
