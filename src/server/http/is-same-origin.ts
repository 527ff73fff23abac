/**
 * Whether a write (POST, PATCH, DELETE…) comes from one of our own pages. Browsers send
 * `Origin` on every cross-origin and same-origin write: it must be our public origin (APP_URL),
 * or the host the request was sent to. Not `X-Forwarded-Host`: a client may send that header
 * itself, and with it any Origin would have matched. Without `Origin` (not a browser, or a very
 * old one) only `Sec-Fetch-Site: cross-site` is refused.
 */
export function isSameOrigin(request: Request, appUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return request.headers.get("sec-fetch-site") !== "cross-site";
  try {
    const from = new URL(origin);
    return (
      from.origin === new URL(appUrl).origin ||
      from.host === (request.headers.get("host") ?? new URL(request.url).host)
    );
  } catch {
    return false;
  }
}
