/** A clip's title in quotes, unless it opens with its own (a caption's words: “So this is…” at 0:40). */
export const quotedTitle = (title: string) => (/^[“"]/.test(title) ? title : `“${title}”`);
