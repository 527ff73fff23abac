/**
 * The first of a clip's reasons that says something its title does not. Titles are built from
 * the strongest reason ("Loud burst at 6:23"), whose text often opens the same way ("Loud
 * burst at 6:23 (−10 dBFS, …)"): showing it under the title would only repeat it.
 */
export function reasonBesideTitle<Reason extends { text: string }>(
  title: string,
  reasons: readonly Reason[],
): Reason | undefined {
  const plainTitle = plainWordsOf(title);
  return reasons.find((reason) => {
    const plainReason = plainWordsOf(reason.text);
    return !plainReason.startsWith(plainTitle) && !plainTitle.startsWith(plainReason);
  });
}

/** Lowercase letters and digits between single spaces: punctuation and quotes do not tell texts apart. */
const plainWordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
