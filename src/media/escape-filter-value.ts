/**
 * Escapes a value (a file path) for a filter option inside a filtergraph. ffmpeg unescapes
 * twice: once when the option string is split (`:` and `=` separate options, `'` quotes), and
 * once when the graph is split (`,` `;` `[` `]` separate filters). So a path with a colon,
 * comma, quote or bracket in it is escaped for the inner level first, then the outer.
 */
export function escapeFilterValue(value: string): string {
  const optionLevel = value.replace(/[\\':]/g, (character) => `\\${character}`);
  return optionLevel.replace(/[\\'[\],;]/g, (character) => `\\${character}`);
}
