import type { ClipOptions } from "@/engine/clip-options";
import { formatCount } from "@/lib/format-count";
import type { KeyValueStore } from "./file-identity";

/** How many clips a creator may ask for from the upload card (the API takes any from 1 to 20). */
const COUNTS = [1, 3, 5, 10, 15, 20];

/** Clip lengths as short-form platforms think of them; the API takes any 3–180 s range. */
const LENGTHS: ReadonlyArray<{ minSeconds: number; maxSeconds: number; name?: string }> = [
  { minSeconds: 15, maxSeconds: 30, name: "Short" },
  { minSeconds: 30, maxSeconds: 60 },
  { minSeconds: 60, maxSeconds: 90 },
  { minSeconds: 90, maxSeconds: 180, name: "Long" },
];

const STORE_KEY = "truss:clip-options";

type Choice = { value: string; label: string };

export function countChoices(defaults: ClipOptions): Choice[] {
  const counts = [...new Set([...COUNTS, defaults.count])].sort((a, b) => a - b);
  return counts.map((count) => ({
    value: String(count),
    label: `Up to ${formatCount(count, "clip")}${count === defaults.count ? " (default)" : ""}`,
  }));
}

export function lengthValue(options: Pick<ClipOptions, "minSeconds" | "maxSeconds">): string {
  return `${options.minSeconds}-${options.maxSeconds}`;
}

/** The default range first, then the rest from shortest to longest. */
export function lengthChoices(defaults: ClipOptions): Choice[] {
  const others = LENGTHS.filter((range) => lengthValue(range) !== lengthValue(defaults));
  return [
    { value: lengthValue(defaults), label: `${formatRange(defaults)} (default)` },
    ...others.map((range) => ({
      value: lengthValue(range),
      label: range.name ? `${range.name}: ${formatRange(range)}` : formatRange(range),
    })),
  ];
}

/** A choice's value back to options; null for a value no choice has. */
export function parseChoice(defaults: ClipOptions, count: string, length: string): ClipOptions | null {
  if (!countChoices(defaults).some((choice) => choice.value === count)) return null;
  if (!lengthChoices(defaults).some((choice) => choice.value === length)) return null;
  const [minSeconds = 0, maxSeconds = 0] = length.split("-").map(Number);
  return { count: Number(count), minSeconds, maxSeconds };
}

/** `options` when the choices offer them (options set through the API may be none); else the defaults. */
export function offeredOrDefaults(defaults: ClipOptions, options: Partial<ClipOptions> | null): ClipOptions {
  if (!options || typeof options !== "object") return defaults;
  return parseChoice(defaults, String(options.count), lengthValue(options as ClipOptions)) ?? defaults;
}

/** What this browser chose last time, if it is still one of the choices; else the defaults. */
export function readRememberedClipOptions(store: KeyValueStore, defaults: ClipOptions): ClipOptions {
  try {
    return offeredOrDefaults(defaults, JSON.parse(store.getItem(STORE_KEY) ?? "null"));
  } catch {
    return defaults; // Unreadable.
  }
}

export function rememberClipOptions(store: KeyValueStore, options: ClipOptions): void {
  store.setItem(STORE_KEY, JSON.stringify(options));
}

/**
 * What a video was asked for, beside what it got once ready: "Up to 5 clips, 15–60 s each";
 * "2 clips (up to 5 asked, 15–60 s each)" when fewer moments stood out. Clips the creator
 * edited (trimmed, or gave a layout) are named, since they are the creator's and outlive a
 * request for other clips: "3 clips (up to 1 asked, 30–60 s each; 2 edited by you)".
 */
export function describeClipRequest(options: ClipOptions, clipCount: number | null, editedCount = 0): string {
  const range = `${formatRange(options)} each`;
  if (clipCount === null) return `Up to ${formatCount(options.count, "clip")}, ${range}`;
  const clips = formatCount(clipCount, "clip");
  if (editedCount > 0)
    return `${clips} (up to ${options.count} asked, ${range}; ${editedCount} edited by you)`;
  if (clipCount < options.count) return `${clips} (up to ${options.count} asked, ${range})`;
  return `${clips}, ${range}`;
}

function formatRange({ minSeconds, maxSeconds }: Pick<ClipOptions, "minSeconds" | "maxSeconds">): string {
  const format = (seconds: number) =>
    seconds >= 120 && seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
  return maxSeconds >= 120 ? `${format(minSeconds)}–${format(maxSeconds)}` : `${minSeconds}–${maxSeconds} s`;
}
