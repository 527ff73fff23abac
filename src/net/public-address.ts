import { BlockList, isIP } from "node:net";

/**
 * Addresses an imported URL may not reach: the machine itself, private networks, link-local
 * (cloud metadata at 169.254.169.254), CGNAT, multicast, documentation and reserved ranges, and
 * IPv6 forms that embed an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo), which could
 * smuggle a private IPv4 address past an IPv4-only check.
 */
const BLOCKED_SUBNETS: ReadonlyArray<readonly [string, number, "ipv4" | "ipv6"]> = [
  ["0.0.0.0", 8, "ipv4"], // "this network"
  ["10.0.0.0", 8, "ipv4"], // private
  ["100.64.0.0", 10, "ipv4"], // carrier-grade NAT
  ["127.0.0.0", 8, "ipv4"], // loopback
  ["169.254.0.0", 16, "ipv4"], // link-local, cloud metadata
  ["172.16.0.0", 12, "ipv4"], // private
  ["192.0.0.0", 24, "ipv4"], // IETF protocol assignments
  ["192.0.2.0", 24, "ipv4"], // documentation
  ["192.88.99.0", 24, "ipv4"], // 6to4 relay anycast
  ["192.168.0.0", 16, "ipv4"], // private
  ["198.18.0.0", 15, "ipv4"], // benchmarking
  ["198.51.100.0", 24, "ipv4"], // documentation
  ["203.0.113.0", 24, "ipv4"], // documentation
  ["224.0.0.0", 4, "ipv4"], // multicast
  ["240.0.0.0", 4, "ipv4"], // reserved, broadcast
  ["::", 128, "ipv6"], // unspecified
  ["::1", 128, "ipv6"], // loopback
  ["::", 96, "ipv6"], // IPv4-compatible (deprecated)
  ["::ffff:0:0", 96, "ipv6"], // IPv4-mapped
  ["64:ff9b::", 96, "ipv6"], // NAT64
  ["64:ff9b:1::", 48, "ipv6"], // local NAT64
  ["100::", 64, "ipv6"], // discard
  ["2001::", 32, "ipv6"], // Teredo
  ["2001:db8::", 32, "ipv6"], // documentation
  ["2001:10::", 28, "ipv6"], // ORCHID
  ["2002::", 16, "ipv6"], // 6to4
  ["fc00::", 7, "ipv6"], // unique local
  ["fe80::", 10, "ipv6"], // link-local
  ["fec0::", 10, "ipv6"], // site-local (deprecated)
  ["ff00::", 8, "ipv6"], // multicast
];

// One list per family: a BlockList checks an IPv4 address against IPv6 rules in its mapped form
// (::ffff:a.b.c.d), so a single list would let the ::ffff:0:0/96 rule block every IPv4 address.
const blockedIpv4 = new BlockList();
const blockedIpv6 = new BlockList();
for (const [network, prefix, family] of BLOCKED_SUBNETS)
  (family === "ipv4" ? blockedIpv4 : blockedIpv6).addSubnet(network, prefix, family);

/** True only for a well-formed IP address on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const type = family === 4 ? "ipv4" : "ipv6";
  // A mapped form in any notation (::ffff:7f00:1) is caught by the ::ffff:0:0/96 rule; the
  // dotted form (::ffff:127.0.0.1) is normalised by BlockList too, but check it explicitly.
  if (type === "ipv6" && /^::ffff:/i.test(address)) return false;
  return type === "ipv4" ? !blockedIpv4.check(address, "ipv4") : !blockedIpv6.check(address, "ipv6");
}
