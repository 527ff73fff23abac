import { mean, ramp, roundTo } from "@/engine/curve-math";
import type { SecondFeatures } from "@/engine/moments/second-features";
import { firstWords } from "@/engine/scoring/evidence";
import type { Chapter, SignalCurve, TranscriptSegment } from "@/engine/types";

/** YouTube ignores chapters shorter than this. */
export const MIN_CHAPTER_SECONDS = 10;
/**
 * Below this length a video is one chapter. From it on, at least three: YouTube shows chapters
 * only when there are three or more, so two would be chapters no viewer sees.
 */
const SINGLE_CHAPTER_BELOW_SECONDS = 120;
const FEWEST_CHAPTERS = 3;
/** Seconds each side of a boundary compared to see how different the two sides are. */
const NOVELTY_WINDOW_SECONDS = 20;
/** How far a fallback boundary may move to land on a real cut or pause. */
const FALLBACK_SNAP_SECONDS = 15;

/**
 * One chapter under 2 minutes; from there about one per 2 minutes up to 20 minutes, per 4
 * minutes up to an hour, per 6 minutes beyond, never fewer than three (a 2½-minute video gets
 * 3, 10 minutes 5, an hour 15, two hours 20), at most 30. Both analyzers aim for this count.
 */
export function targetChapterCount(durationSeconds: number): number {
  if (!(durationSeconds >= SINGLE_CHAPTER_BELOW_SECONDS)) return 1;
  const chapterSeconds = durationSeconds <= 20 * 60 ? 120 : durationSeconds <= 60 * 60 ? 240 : 360;
  return Math.max(FEWEST_CHAPTERS, Math.min(30, Math.round(durationSeconds / chapterSeconds)));
}

type Candidate = { atSeconds: number; strength: number };

/**
 * Chapters for the whole video. Boundaries are real transitions — the end of a pause (as the
 * next part begins) or a scene cut — chosen where the picture and sound differ most between the
 * 20 s before and after, spaced so no chapter but the first and the last is shorter than a third
 * of the average (and none under 10 s). A part in which something is said (with a transcript)
 * is titled with its first words, “So this is where it…”, as a viewer would find it in a list;
 * otherwise its signals describe it: "Part 3 · high energy".
 */
export function buildChapters({
  signals,
  features,
  interest,
  transcript = [],
}: {
  signals: SignalCurve;
  features: SecondFeatures;
  interest: readonly number[];
  transcript?: readonly TranscriptSegment[];
}): Chapter[] {
  const durationSeconds = signals.durationSeconds;
  const count = targetChapterCount(durationSeconds);
  const minimumSeconds = Math.max(MIN_CHAPTER_SECONDS, durationSeconds / count / 3);
  const candidates = collectCandidates(signals, features);

  const chosen: number[] = [];
  // The first and last chapters need only YouTube's 10 s: videos often open with a short intro
  // and close with an end card, and the part after an intro starts where it ends, not at the
  // first cut a third of the average in.
  const fits = (time: number) =>
    time >= MIN_CHAPTER_SECONDS &&
    durationSeconds - time >= MIN_CHAPTER_SECONDS &&
    chosen.every((other) => Math.abs(other - time) >= minimumSeconds);
  for (const candidate of [...candidates].sort(
    (a, b) => b.strength - a.strength || a.atSeconds - b.atSeconds,
  )) {
    if (chosen.length >= count - 1) break;
    if (fits(candidate.atSeconds)) chosen.push(candidate.atSeconds);
  }
  // Too few transitions (a steady video): fill in at the evenly spaced positions, moved onto a
  // nearby cut or pause when there is one, farthest from the chosen boundaries first.
  const evenPositions = Array.from(
    { length: count - 1 },
    (_, index) => ((index + 1) * durationSeconds) / count,
  );
  const distanceToChosen = (time: number) =>
    Math.min(time, durationSeconds - time, ...chosen.map((other) => Math.abs(other - time)));
  for (const position of evenPositions.sort((a, b) => distanceToChosen(b) - distanceToChosen(a))) {
    if (chosen.length >= count - 1) break;
    const nearby = candidates
      .filter(
        (candidate) =>
          Math.abs(candidate.atSeconds - position) <= FALLBACK_SNAP_SECONDS && fits(candidate.atSeconds),
      )
      .sort((a, b) => Math.abs(a.atSeconds - position) - Math.abs(b.atSeconds - position))[0];
    const split = nearby?.atSeconds ?? Math.round(position);
    if (fits(split)) chosen.push(split);
  }

  const starts = [0, ...chosen.sort((a, b) => a - b)];
  return titleChapters({
    ranges: starts.map((startSeconds, index) => ({
      startSeconds,
      endSeconds: starts[index + 1] ?? durationSeconds,
    })),
    signals,
    features,
    interest,
    transcript,
  });
}

/**
 * Titles for chapters whose boundaries are set: a part in which something is said is titled
 * with its first words; otherwise its signals describe it. Also used when a video's captions
 * change after its analysis: the parts stay, their titles follow what is said in them.
 */
export function titleChapters({
  ranges,
  signals,
  features,
  interest,
  transcript = [],
}: {
  ranges: readonly { startSeconds: number; endSeconds: number }[];
  signals: SignalCurve;
  features: SecondFeatures;
  interest: readonly number[];
  transcript?: readonly TranscriptSegment[];
}): Chapter[] {
  return ranges.map(({ startSeconds, endSeconds }, index) => {
    const firstSaid = transcript
      .filter((segment) => segment.startSeconds >= startSeconds && segment.startSeconds < endSeconds)
      .reduce<TranscriptSegment | undefined>(
        (first, segment) => (!first || segment.startSeconds < first.startSeconds ? segment : first),
        undefined,
      );
    return {
      startSeconds: roundTo(startSeconds, 3),
      endSeconds: roundTo(endSeconds, 3),
      title: firstSaid
        ? `“${firstWords(firstSaid.text, 6)}”`
        : `Part ${index + 1} · ${describePart({ startSeconds, endSeconds }, signals, features, interest)}`,
    };
  });
}

function collectCandidates(signals: SignalCurve, features: SecondFeatures): Candidate[] {
  const candidates: Candidate[] = [];
  for (const silence of signals.silences) {
    const pauseSeconds = silence.endSeconds - silence.startSeconds;
    candidates.push({
      atSeconds: silence.endSeconds,
      strength: novelty(features, silence.endSeconds) + 0.3 * ramp(pauseSeconds, 0.5, 3),
    });
  }
  for (const cut of signals.sceneCutsSeconds) {
    const score = signals.sceneScore[Math.floor(cut)] ?? 0;
    candidates.push({ atSeconds: cut, strength: novelty(features, cut) + 0.2 * score });
  }
  return candidates;
}

/** 0..1: how different the 20 s after `time` are from the 20 s before, across the features. */
function novelty(features: SecondFeatures, time: number): number {
  const at = Math.round(time);
  const before = (values: number[]) => mean(values.slice(Math.max(0, at - NOVELTY_WINDOW_SECONDS), at));
  const after = (values: number[]) => mean(values.slice(at, at + NOVELTY_WINDOW_SECONDS));
  const channels = [features.loudness, features.audio, features.visual, features.speech];
  return mean(channels.map((values) => Math.abs(after(values) - before(values))));
}

/** A few plain words for what a part is like, from its average signals. */
function describePart(
  range: { startSeconds: number; endSeconds: number },
  signals: SignalCurve,
  features: SecondFeatures,
  interest: readonly number[],
): string {
  const from = Math.floor(range.startSeconds);
  const to = Math.max(from + 1, Math.ceil(range.endSeconds));
  const lengthSeconds = Math.max(1, range.endSeconds - range.startSeconds);
  const silentSeconds = signals.silences.reduce(
    (sum, silence) =>
      sum +
      Math.max(
        0,
        Math.min(range.endSeconds, silence.endSeconds) - Math.max(range.startSeconds, silence.startSeconds),
      ),
    0,
  );
  const cutsPerMinute =
    (signals.sceneCutsSeconds.filter((cut) => cut >= range.startSeconds && cut < range.endSeconds).length *
      60) /
    lengthSeconds;
  const average = (values: readonly number[]) => mean(values.slice(from, to));

  if (silentSeconds / lengthSeconds >= 0.6) return "quiet";
  const traits = [
    { label: "fast cuts", strength: ramp(cutsPerMinute, 4, 12) },
    { label: "action", strength: ramp(average(features.motion), 0.3, 0.6) },
    { label: "high energy", strength: ramp(average(features.audio), 0.35, 0.6) },
    { label: "talk", strength: ramp(average(features.speech), 0.15, 0.4) },
  ];
  const strongest = traits.reduce((best, trait) => (trait.strength > best.strength ? trait : best));
  if (strongest.strength > 0) return strongest.label;
  return average(interest) < 0.1 ? "calm" : "steady";
}
