import type { TranscriptSegment } from "@/engine/types";
import { splitAtLineBreaks, textUnits } from "./caption-text-width";

/** One caption on screen: a few words, timed relative to the clip's start. */
export type CaptionCard = { startSeconds: number; endSeconds: number; text: string };

export type BuildCaptionCardsOptions = {
  segments: TranscriptSegment[];
  /** The clip's range in the source; cards are re-timed to start at 0. */
  clipStartSeconds: number;
  clipEndSeconds: number;
  /** Shorts captions read best as 1–3 words at a time. */
  maxWordsPerCard?: number;
  /**
   * A card also ends once it reaches this many characters (a CJK character counts as two), so
   * a card fits on one or two lines.
   */
  maxCharsPerCard?: number;
};

/** Cards shorter than this flash by unreadably; they are dropped (their words are rare edge bits). */
const MIN_CARD_SECONDS = 0.08;

/**
 * Splits transcript segments into short caption cards timed within each segment. A segment's
 * time is shared between its cards in proportion to their characters (a rough stand-in for
 * speech rate, since we have no word timings); punctuation ends a card so phrases stay whole.
 * Cards outside the clip are dropped and the ones at its edges trimmed to it.
 */
export function buildCaptionCards({
  segments,
  clipStartSeconds,
  clipEndSeconds,
  maxWordsPerCard = 3,
  maxCharsPerCard = 16,
}: BuildCaptionCardsOptions): CaptionCard[] {
  const cards: CaptionCard[] = [];
  const clipDurationSeconds = clipEndSeconds - clipStartSeconds;
  for (const segment of segments) {
    if (segment.endSeconds <= clipStartSeconds || segment.startSeconds >= clipEndSeconds) continue;
    const chunks = chunkWords(segment.text, maxWordsPerCard, maxCharsPerCard);
    // One extra unit per chunk so a run of short words still gets a visible share of time.
    const weights = chunks.map((chunk) => chunk.length + 1);
    const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
    const segmentSeconds = segment.endSeconds - segment.startSeconds;
    let cursor = segment.startSeconds;
    chunks.forEach((text, index) => {
      const chunkSeconds = (segmentSeconds * (weights[index] ?? 0)) / totalWeight;
      const startSeconds = Math.max(0, cursor - clipStartSeconds);
      const endSeconds = Math.min(clipDurationSeconds, cursor + chunkSeconds - clipStartSeconds);
      cursor += chunkSeconds;
      if (endSeconds - startSeconds >= MIN_CARD_SECONDS) cards.push({ startSeconds, endSeconds, text });
    });
  }
  return cards.sort((a, b) => a.startSeconds - b.startSeconds);
}

/** A card ends after a piece ending in punctuation (Latin or CJK), closing quotes allowed. */
const ENDS_PHRASE = /[.!?,;:…。！？、，；：]["'”’)\]」』）]?$/u;

/**
 * Words into cards of at most `maxWords` words and `maxUnits` half-width units (a CJK character
 * is two). Japanese and Chinese have no spaces: such a word is broken between characters
 * (splitAtLineBreaks), its pieces joined again without a space and counted as one word.
 */
function chunkWords(text: string, maxWords: number, maxUnits: number): string[] {
  const pieces = text
    .split(/\s+/)
    .filter((word) => word !== "")
    .flatMap((word) => splitAtLineBreaks(word).map((piece, index) => ({ piece, startsWord: index === 0 })));
  const chunks: string[] = [];
  let current = "";
  let words = 0;
  const flush = () => {
    if (current !== "") chunks.push(current);
    current = "";
    words = 0;
  };
  for (const { piece, startsWord } of pieces) {
    const joined = current === "" ? piece : `${current}${startsWord ? " " : ""}${piece}`;
    const tooMany = startsWord && words >= maxWords;
    if (current !== "" && (tooMany || textUnits(joined) > maxUnits)) flush();
    current = current === "" ? piece : joined;
    if (startsWord || words === 0) words += 1;
    if (ENDS_PHRASE.test(piece)) flush();
  }
  flush();
  return chunks;
}
