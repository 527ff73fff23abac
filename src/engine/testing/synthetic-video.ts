import type { TimeRange } from "@/engine/types";
import type { MediaBinaries } from "@/media/ffmpeg-binaries";
import { runMedia } from "@/media/run-ffmpeg";

/**
 * Test videos with PLANTED events at known times, made entirely from ffmpeg's lavfi sources.
 *
 * The background is deliberately uneventful — a dark card with a slowly drifting test pattern
 * and quiet pink noise (about −34 dBFS), like a static shot with room tone.
 * Each planted event is a "scene" of its own, 15–30 s long, so it has true boundaries a clip
 * should find:
 *
 *  - `loud-burst`: a bright red card; white-noise bursts near full scale (0.7 s on, 0.5 s quiet);
 *  - `fast-cuts`: the picture switches between four very different frames every 0.4 s;
 *  - `motion`: a light blue card with a large test pattern bouncing fast across the frame.
 *
 * Every event is bracketed by 1 s of digital silence just before it starts and just after it
 * ends (the pause a real edit would have), and some gaps get a longer planted silence. A video
 * planned with no events is the flat control: the same background, nothing happening.
 */
export type PlantedEventKind = "loud-burst" | "fast-cuts" | "motion";

export type PlantedEvent = TimeRange & { kind: PlantedEventKind };

export type SyntheticVideoPlan = {
  durationSeconds: number;
  events: PlantedEvent[];
  /** Every planted silence: the 1 s brackets around events and the longer ones in gaps. */
  silences: TimeRange[];
};

export type SyntheticVideo = SyntheticVideoPlan & { path: string };

/** One minute, one loud burst (15–32 s) between 1 s silences: a short video with a clear clip. */
export const ONE_LOUD_BURST_MINUTE: SyntheticVideoPlan = {
  durationSeconds: 60,
  events: [{ kind: "loud-burst", startSeconds: 15, endSeconds: 32 }],
  silences: [
    { startSeconds: 14, endSeconds: 15 },
    { startSeconds: 32, endSeconds: 33 },
  ],
};

const EVENT_KINDS: PlantedEventKind[] = ["loud-burst", "fast-cuts", "motion"];
const EVENT_LENGTHS_SECONDS = [20, 24, 18, 28, 22, 16, 26];
const BRACKET_SILENCE_SECONDS = 1;
const GAP_SILENCE_SECONDS = 4;

/**
 * Lays events out from `firstEventSeconds`, `gapSeconds` of background between them, cycling
 * through the kinds and lengths, as many as fit with 10 s of background at the end.
 */
export function planSyntheticVideo({
  durationSeconds,
  firstEventSeconds = 15,
  gapSeconds = 25,
  kinds = EVENT_KINDS,
  flat = false,
}: {
  durationSeconds: number;
  firstEventSeconds?: number;
  gapSeconds?: number;
  kinds?: PlantedEventKind[];
  /** The flat control: no events, no silences. */
  flat?: boolean;
}): SyntheticVideoPlan {
  const events: PlantedEvent[] = [];
  const silences: TimeRange[] = [];
  if (flat) return { durationSeconds, events, silences };
  let startSeconds = firstEventSeconds;
  for (let index = 0; ; index += 1) {
    const length = EVENT_LENGTHS_SECONDS[index % EVENT_LENGTHS_SECONDS.length] ?? 20;
    const endSeconds = startSeconds + length;
    if (endSeconds + 10 > durationSeconds) break;
    const kind = kinds[index % kinds.length] ?? "loud-burst";
    events.push({ kind, startSeconds, endSeconds });
    silences.push({ startSeconds: startSeconds - BRACKET_SILENCE_SECONDS, endSeconds: startSeconds });
    silences.push({ startSeconds: endSeconds, endSeconds: endSeconds + BRACKET_SILENCE_SECONDS });
    const nextStart = endSeconds + gapSeconds;
    // A longer silence in the middle of every other gap (if it ends before the video does).
    const gapMiddle = endSeconds + gapSeconds / 2;
    const gapSilenceStart = Math.floor(gapMiddle - GAP_SILENCE_SECONDS / 2);
    if (index % 2 === 1 && gapSilenceStart + GAP_SILENCE_SECONDS < durationSeconds - 5) {
      silences.push({ startSeconds: gapSilenceStart, endSeconds: gapSilenceStart + GAP_SILENCE_SECONDS });
    }
    startSeconds = nextStart;
  }
  return { durationSeconds, events, silences };
}

export type SyntheticVideoOptions = {
  plan: SyntheticVideoPlan;
  width?: number;
  height?: number;
  fps?: number;
  /** x264 preset; tests use ultrafast, the benchmark a realistic one. */
  preset?: string;
  /** x264 keyframe interval in frames (x264's default is 250, about 8 s at 30 fps). */
  keyframeIntervalFrames?: number;
};

type Segment = {
  startSeconds: number;
  endSeconds: number;
  picture: "background" | PlantedEventKind;
  sound: "room-tone" | "bursts" | "silence";
};

/** Cuts the timeline at every event and silence boundary; each piece has one picture and one sound. */
export function toSegments(plan: SyntheticVideoPlan): Segment[] {
  const boundaries = new Set<number>([0, plan.durationSeconds]);
  for (const range of [...plan.events, ...plan.silences]) {
    boundaries.add(range.startSeconds);
    boundaries.add(range.endSeconds);
  }
  const points = [...boundaries]
    .filter((point) => point >= 0 && point <= plan.durationSeconds)
    .sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let index = 0; index + 1 < points.length; index += 1) {
    const startSeconds = points[index] ?? 0;
    const endSeconds = points[index + 1] ?? plan.durationSeconds;
    const middle = (startSeconds + endSeconds) / 2;
    const inside = (range: TimeRange) => range.startSeconds <= middle && middle < range.endSeconds;
    const event = plan.events.find(inside);
    const silent = plan.silences.some(inside);
    segments.push({
      startSeconds,
      endSeconds,
      picture: event?.kind ?? "background",
      sound: silent ? "silence" : event?.kind === "loud-burst" ? "bursts" : "room-tone",
    });
  }
  return segments;
}

/**
 * Pure: the ffmpeg arguments that render a plan to `outputPath`. Each segment has its own lavfi
 * sources and the pieces are joined with `concat`, so at any moment only one segment's sources
 * are drawing (a graph that overlays everything all the time is many times slower at 1080p).
 */
export function buildSyntheticVideoArgs(options: SyntheticVideoOptions & { outputPath: string }): string[] {
  const { plan, outputPath, width = 320, height = 180, fps = 30, preset = "ultrafast" } = options;
  const even = (value: number) => Math.max(2, Math.round(value / 2) * 2);
  const driftSize = even(width / 5);
  const bounceSize = even(height / 2);
  const size = `${width}x${height}`;
  const segments = toSegments(plan);

  const chains: string[] = [];
  segments.forEach((segment, index) => {
    const seconds = segment.endSeconds - segment.startSeconds;
    const offset = segment.startSeconds;
    const timing = `r=${fps}:d=${seconds}`;
    const label = (name: string) => `[${name}${index}]`;
    switch (segment.picture) {
      case "background":
        // A dark card with a small test pattern drifting slowly (continuous across segments).
        chains.push(
          `color=c=0x1c2833:s=${size}:${timing}${label("bg")}`,
          `testsrc=s=${driftSize}x${driftSize}:${timing}${label("drift")}`,
          `${label("bg")}${label("drift")}overlay=x='W*0.4+W*0.1*sin((t+${offset})/4)':y='H*0.35'${label("pic")}`,
        );
        break;
      case "loud-burst":
        chains.push(`color=c=0xe74c3c:s=${size}:${timing}${label("pic")}`);
        break;
      case "motion":
        // A large pattern bouncing across a blue card (it crosses the frame about once a second).
        chains.push(
          `color=c=0x85c1e9:s=${size}:${timing}${label("bg")}`,
          `testsrc2=s=${bounceSize}x${bounceSize}:${timing}${label("object")}`,
          `${label("bg")}${label("object")}overlay=x='(W-w)*(0.5+0.5*sin(t*3.1))':y='(H-h)*(0.5+0.5*cos(t*2.3))'${label("pic")}`,
        );
        break;
      case "fast-cuts":
        // Four looks of the colour bars (as shot, negative, mirrored, both) change every 0.4 s:
        // hard cuts, never the same look twice in a row, like a montage.
        chains.push(
          `smptebars=s=${size}:${timing},format=yuv420p,` +
            `negate=enable='mod(floor(t*2.5)\\,2)',hflip=enable='gte(mod(floor(t*2.5)\\,4)\\,2)'${label("pic")}`,
        );
        break;
    }
    chains.push(`${label("pic")}format=yuv420p,setsar=1${label("v")}`);
    const samples = `s=48000:d=${seconds}`;
    switch (segment.sound) {
      case "room-tone":
        chains.push(`anoisesrc=c=pink:a=0.1:r=48000:seed=${11 + index}:d=${seconds}${label("a")}`);
        break;
      case "silence":
        chains.push(`aevalsrc=0:${samples}${label("a")}`);
        break;
      case "bursts":
        // White noise near full scale 0.7 s of every 1.2 s, quiet (about −36 dBFS) in between.
        chains.push(
          `anoisesrc=c=white:a=0.8:r=48000:seed=${7 + index}:d=${seconds},` +
            `volume='if(lt(mod(t\\,1.2)\\,0.7)\\,1\\,0.06)':eval=frame${label("a")}`,
        );
        break;
    }
  });
  const pairs = segments.map((_, index) => `[v${index}][a${index}]`).join("");
  chains.push(
    `${pairs}concat=n=${segments.length}:v=1:a=1[video][mixed]`,
    "[mixed]aformat=sample_fmts=fltp:channel_layouts=mono[audio]",
  );

  return [
    "-hide_banner",
    "-nostdin",
    "-v",
    "error",
    "-y",
    "-filter_complex",
    chains.join(";"),
    "-map",
    "[video]",
    "-map",
    "[audio]",
    "-c:v",
    "libx264",
    "-preset",
    preset,
    "-crf",
    "23",
    ...(options.keyframeIntervalFrames ? ["-g", String(options.keyframeIntervalFrames)] : []),
    // x264 puts a keyframe at each hard cut unless a preset turns that off (ultrafast does):
    // keep it on, as every camera and editing tool does.
    "-sc_threshold",
    "40",
    "-c:a",
    "aac",
    // The default AAC coder is slow; test audio needs no finesse.
    "-aac_coder",
    "fast",
    "-b:a",
    "96k",
    "-movflags",
    "+faststart",
    outputPath,
  ];
}

/** Renders a plan (from `planSyntheticVideo`) to an MP4 and returns it with its planted events. */
export async function generateSyntheticVideo({
  binaries,
  outputPath,
  timeoutMs,
  signal,
  ...options
}: SyntheticVideoOptions & {
  binaries: MediaBinaries;
  outputPath: string;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<SyntheticVideo> {
  const pixels = (options.width ?? 320) * (options.height ?? 180);
  // Encoding speed is roughly proportional to pixels; allow a slow machine 3× the usual time.
  const defaultTimeoutMs = 60_000 + options.plan.durationSeconds * 1000 * Math.max(0.2, pixels / 400_000);
  await runMedia({
    binaryPath: binaries.ffmpegPath,
    args: buildSyntheticVideoArgs({ ...options, outputPath }),
    timeoutMs: timeoutMs ?? defaultTimeoutMs,
    signal,
  });
  return { ...options.plan, path: outputPath };
}
