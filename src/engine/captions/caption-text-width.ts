/**
 * How wide caption text is, estimated without the font: libass draws what it is given and
 * never shrinks text that does not fit, and it breaks lines only at spaces, so the cards and
 * their style have to be sized beforehand.
 */

/**
 * Characters a CJK font draws a full em wide: Hangul, kana, CJK ideographs and symbols,
 * full-width forms.
 */
const FULL_WIDTH =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;
const NARROW = /[iIjlftr1.,:;'!|`´’‘"()[\]\s]/u;
const BROAD = /[MWmw@%ÆŒæœ—ЖШЩЮФжшщюф]/u;
const CAPITAL_OR_DIGIT = /[\p{Lu}\p{Nd}]/u;

/**
 * A generous estimate of one line's advance width in ems of the font size, for the bold sans
 * serif the captions use. Measured on rendered captions (Geist, emboldened, runs of one
 * letter): "a" 0.40 em, "o" and "n" 0.42, "A" 0.49, "O" 0.54, "8" 0.44, "M" and "m" 0.63,
 * "W" and "Ш" 0.69, "Щ" 0.73, "t" and "r" 0.28, "i" 0.17; each class here rounds its letters up, so text
 * estimated to fit does.
 */
export function estimateTextWidthEm(text: string): number {
  let ems = 0;
  for (const char of text) {
    if (FULL_WIDTH.test(char)) ems += 1;
    else if (NARROW.test(char)) ems += 0.3;
    else if (BROAD.test(char)) ems += 0.76;
    else if (CAPITAL_OR_DIGIT.test(char)) ems += 0.58;
    else ems += 0.45;
  }
  return ems;
}

/** Scripts written without spaces between words: a line may break between any two characters. */
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Never at the start of a line (CJK closing punctuation, small kana, the long vowel mark; Latin closers). */
const NO_LINE_START =
  /[、。，．・：；？！ー」』）】〕〉》々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ!?.,:;)\]}%…]/u;
/** Never at the end of a line: opening brackets stay with what follows. */
const NO_LINE_END = /[「『（【〔〈《([{]/u;

/**
 * A word as pieces a caption may be broken between: one piece for a word of a spaced script;
 * for Japanese or Chinese (no spaces), one per character, keeping closing punctuation and
 * small kana with the character before and opening brackets with the one after, and a run of
 * Latin letters or digits inside (`LINEで`) whole.
 */
export function splitAtLineBreaks(word: string): string[] {
  if (!UNSPACED_SCRIPT.test(word)) return [word];
  const pieces: string[] = [];
  let current = "";
  let previousWasUnspaced = false;
  for (const char of word) {
    const unspaced = UNSPACED_SCRIPT.test(char) && !NO_LINE_START.test(char);
    const breakBefore =
      current !== "" &&
      !NO_LINE_START.test(char) &&
      !NO_LINE_END.test(current.slice(-1)) &&
      (unspaced || previousWasUnspaced);
    if (breakBefore) {
      pieces.push(current);
      current = "";
    }
    current += char;
    if (!NO_LINE_START.test(char)) previousWasUnspaced = unspaced;
  }
  if (current !== "") pieces.push(current);
  return pieces;
}

/** Length in half-width units: a full-width character counts as two. */
export function textUnits(text: string): number {
  let units = 0;
  for (const char of text) units += FULL_WIDTH.test(char) ? 2 : 1;
  return units;
}
