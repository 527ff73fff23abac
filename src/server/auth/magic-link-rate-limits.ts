import type { RateLimitRule } from "./enforce-rate-limit";

/**
 * Limits on "send me a sign-in link". Per email: enough for a few retries of a slow inbox,
 * too few to flood someone's mailbox. Per client address: a household or office signing in
 * several people, not a script walking a list of addresses.
 */
export const MAGIC_LINK_RATE_LIMITS = {
  perEmail: { scope: "magic-email", limit: 5, windowMs: 15 * 60 * 1000 },
  perClientAddress: { scope: "magic-client", limit: 20, windowMs: 15 * 60 * 1000 },
} as const satisfies Record<string, RateLimitRule>;
