import { formatSeconds } from "./cut-args";

export type ThumbnailOptions = {
  inputLabel: string;
  outputLabel: string;
  /** Seconds from the clip's start. */
  atSeconds: number;
  outputPath: string;
};

/**
 * A filtergraph branch keeping the frames from `atSeconds` to half a second later; the output
 * takes the first one. The branch ends there (trim's `end`), so the rest of the clip is never
 * queued for an output that already has its frame.
 */
export function buildThumbnailFilter({ inputLabel, outputLabel, atSeconds }: ThumbnailOptions): string {
  const start = formatSeconds(Math.max(0, atSeconds));
  const end = formatSeconds(Math.max(0, atSeconds) + 0.5);
  return `[${inputLabel}]trim=start=${start}:end=${end},setpts=PTS-STARTPTS[${outputLabel}]`;
}

/** Output options: one full-size JPEG frame (quality 3 of 2–31, about 150–300 KB). */
export function buildThumbnailOutputArgs({ outputLabel, outputPath }: ThumbnailOptions): string[] {
  return [
    "-map",
    `[${outputLabel}]`,
    "-frames:v",
    "1",
    "-q:v",
    "3",
    "-f",
    "image2",
    "-update",
    "1",
    outputPath,
  ];
}
