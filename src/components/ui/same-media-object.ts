/**
 * Whether two signed URLs name the same stored object: the same origin and path. Signing again
 * (a server render every few minutes, a fresh URL after expiry) changes only the query.
 */
export function namesSameObject(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  try {
    const first = new URL(a);
    const second = new URL(b);
    return first.origin === second.origin && first.pathname === second.pathname;
  } catch {
    return false;
  }
}

/**
 * Whether a player keeps the URL it shows when the page hands it another one. Swapping the
 * src of a <video> starts it over at 0:00, paused: a newly signed URL of the same object is
 * not worth that, unless the current URL failed (then any fresh signature is welcome). A
 * different object (a new render) always replaces it.
 */
export function keepsCurrentMediaUrl(options: {
  currentUrl: string | null;
  currentFailed: boolean;
  pageUrl: string | null;
}): boolean {
  return !options.currentFailed && namesSameObject(options.currentUrl, options.pageUrl);
}
