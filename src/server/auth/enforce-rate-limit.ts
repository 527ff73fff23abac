import "server-only";
import { incrementRateLimitWindow } from "@/db/repos/rate-limit-repo";
import type { Table } from "@/db/table";
import { AppError } from "@/server/errors";
import { hashToken } from "./hash-token";

export type RateLimitRule = {
  /** Names the counter family in the key, e.g. `magic-email`. */
  scope: string;
  limit: number;
  windowMs: number;
};

/**
 * Counts one request against `rule` for `subject` and throws `rate_limited` (429 with
 * Retry-After) once the window's count passes the limit. Subjects are hashed, so the table
 * holds no email addresses or IP addresses in rate-limit keys.
 */
export async function enforceRateLimit(options: {
  table: Table;
  rule: RateLimitRule;
  subject: string;
  nowMs?: number;
}): Promise<void> {
  const { table, rule } = options;
  const nowMs = options.nowMs ?? Date.now();
  const hit = await incrementRateLimitWindow({
    table,
    scope: rule.scope,
    subject: hashToken(options.subject).slice(0, 32),
    windowMs: rule.windowMs,
    nowMs,
  });
  if (hit.count > rule.limit) {
    const retryAfterSeconds = Math.max(1, Math.ceil((hit.windowEndMs - nowMs) / 1000));
    throw new AppError(
      "rate_limited",
      `Too many sign-in requests. Try again in ${describeWait(retryAfterSeconds)}.`,
      { retryAfterSeconds },
    );
  }
}

function describeWait(seconds: number): string {
  if (seconds < 90) return `${seconds} seconds`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
