import type { CaptionCard } from "./build-caption-cards";
import { estimateTextWidthEm } from "./caption-text-width";

/**
 * Where captions may sit on a 1080×1920 short. TikTok, Reels and Shorts draw the channel name,
 * description and progress bar over the bottom ~20%, a header over the top ~10% and the
 * like/comment/share column down the right edge, so captions sit in the lower-middle band: their
 * baseline at 72% of the height, with a wider right margin than left.
 */
export const CAPTION_LAYOUT = {
  frameWidth: 1080,
  frameHeight: 1920,
  /** Distance from the bottom edge to the caption baseline (28% of the height). */
  marginBottomPx: 538,
  marginLeftPx: 90,
  /** Clear of the right-edge button column (about 15% of the width). */
  marginRightPx: 170,
  fontSizePx: 116,
  outlinePx: 9,
  shadowPx: 3,
  /** A white outline on a second layer thickens the glyphs: bold from any regular font. */
  emboldenPx: 2.5,
} as const;

export type BuildAssDocumentOptions = {
  cards: CaptionCard[];
  /** Font family libass should use; the renderer ships the font file beside the document. */
  fontName: string;
};

/**
 * An ASS subtitle document styling the cards for shorts: big heavy white text with a thick black
 * outline and a soft shadow (readable on any footage), centred in the safe band, each card
 * popping in with a short fade. Each card is drawn twice: the outlined text on layer 0, and on
 * layer 1 the same text with a thin white outline, which makes the letters heavy whatever the
 * font's weight (libass's synthetic bold is faint). Events on different layers never collide,
 * so the two copies overlap exactly.
 */
export function buildAssDocument({ cards, fontName }: BuildAssDocumentOptions): string {
  const layout = CAPTION_LAYOUT;
  // Colours are &HAABBGGRR with alpha 00 = opaque.
  const style = [
    "Caption",
    fontName,
    layout.fontSizePx,
    "&H00FFFFFF",
    "&H00FFFFFF",
    "&H00000000",
    "&H80000000",
    -1, // bold
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    1, // outline + shadow, not an opaque box
    layout.outlinePx,
    layout.shadowPx,
    2, // bottom centre: MarginV is measured from the bottom edge
    layout.marginLeftPx,
    layout.marginRightPx,
    layout.marginBottomPx,
    1,
  ].join(",");
  const embolden = `\\bord${layout.emboldenPx}\\3c&HFFFFFF&\\shad0`;
  const events = cards.flatMap((card) => {
    const timing = `${formatAssTime(card.startSeconds)},${formatAssTime(card.endSeconds)}`;
    const text = escapeAssText(card.text);
    const fontSizePx = fittingFontSizePx(text);
    const size = fontSizePx === layout.fontSizePx ? "" : `\\fs${fontSizePx}`;
    return [
      `Dialogue: 0,${timing},Caption,,0,0,0,,{\\fad(60,0)${size}}${text}`,
      `Dialogue: 1,${timing},Caption,,0,0,0,,{\\fad(60,0)${size}${embolden}}${text}`,
    ];
  });
  return [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${layout.frameWidth}`,
    `PlayResY: ${layout.frameHeight}`,
    // Smart wrapping: lines are split evenly when a card is too wide for the safe band.
    "WrapStyle: 0",
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding",
    `Style: ${style}`,
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ...events,
    "",
  ].join("\n");
}

/** Below this a caption is too small to read on a phone; a longer word is left to overflow. */
const SMALLEST_FONT_SIZE_PX = 48;

/**
 * The style's size, or smaller for a card with a word too wide for the band between the
 * margins: libass breaks lines only at spaces, so a long word ("Supercalifragilistic…", a run
 * of capitals, a Japanese phrase) ran off both edges of the frame.
 */
export function fittingFontSizePx(text: string): number {
  const layout = CAPTION_LAYOUT;
  const bandPx = layout.frameWidth - layout.marginLeftPx - layout.marginRightPx;
  // The outline and the emboldening layer stick out on both sides.
  const edgesPx = 2 * (layout.outlinePx + layout.emboldenPx);
  const widestEm = Math.max(0, ...text.split(" ").map(estimateTextWidthEm));
  const widthPx = widestEm * layout.fontSizePx + edgesPx;
  if (widthPx <= bandPx) return layout.fontSizePx;
  const scaled = Math.floor((layout.fontSizePx * (bandPx - edgesPx)) / (widestEm * layout.fontSizePx));
  return Math.max(SMALLEST_FONT_SIZE_PX, scaled);
}

/** `H:MM:SS.cc`, the centisecond clock ASS uses. */
export function formatAssTime(seconds: number): string {
  const centiseconds = Math.max(0, Math.round(seconds * 100));
  const hours = Math.floor(centiseconds / 360_000);
  const minutes = Math.floor((centiseconds % 360_000) / 6000);
  const secs = Math.floor((centiseconds % 6000) / 100);
  const cs = centiseconds % 100;
  return `${hours}:${pad2(minutes)}:${pad2(secs)}.${pad2(cs)}`;
}

function pad2(value: number): string {
  return String(value).padStart(2, "0");
}

/**
 * Emoji and what joins or styles them (flags, skin tones, ZWJ, variation selectors). libass draws
 * outline fonts only, and no colour emoji font is one: each would be burned in as an empty box.
 * ©, ® and ™ are pictographic too, but text fonts have them.
 */
const EMOJI =
  /(?![\u00A9\u00AE\u2122])(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200D|\uFE0F|\u20E3)/gu;

/**
 * Text is shown literally: braces would open override blocks and a backslash starts an escape.
 * Emoji are left out (see EMOJI).
 */
function escapeAssText(text: string): string {
  return text
    .replace(EMOJI, "")
    .replace(/\\/g, "∖")
    .replace(/\{/g, "(")
    .replace(/\}/g, ")")
    .replace(/\s+/g, " ")
    .trim();
}
