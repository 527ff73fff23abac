/**
 * The client's address for rate limiting: the X-Forwarded-For entry appended by the outermost
 * of `trustedProxyHops` proxies, counted from the right. The leftmost entry is what a client
 * chose to send, so keying on it would let anyone dodge a per-address limit by inventing one.
 * `x-real-ip` is the fallback; without either (direct calls in tests) every caller shares one
 * bucket, which errs on the side of limiting.
 */
export function clientAddressOf(headers: Headers, trustedProxyHops: number): string {
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  // Fewer entries than proxies: the request skipped one; the leftmost is the best there is.
  const forwarded = entries[Math.max(0, entries.length - trustedProxyHops)];
  const address = forwarded || headers.get("x-real-ip")?.trim() || "unknown";
  return address.slice(0, 100);
}
