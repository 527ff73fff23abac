/** A count with its noun: "1 clip", "5 clips", "1 chapter" (for the web pages, the CLI and messages). */
export function formatCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
