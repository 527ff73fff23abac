/**
 * The client's address for rate limiting. Behind Next's server (and most proxies) it is the
 * first entry of `x-forwarded-for`; `x-real-ip` is the fallback. Without either (direct calls
 * in tests), every caller shares one bucket, which errs on the side of limiting.
 */
export function clientAddressOf(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const address = forwarded || headers.get("x-real-ip")?.trim() || "unknown";
  return address.slice(0, 100);
}
