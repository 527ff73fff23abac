import "server-only";
import { Auth, raw, skipCSRFCheck } from "@auth/core";
import type { ResponseInternal } from "@auth/core/types";
import { AppError } from "@/server/errors";
import { type Runtime, tableOf } from "@/server/runtime";
import { createAuthConfig } from "./auth-config";
import { DEFAULT_AFTER_SIGN_IN_PATH, toSafeCallbackPath } from "./callback-url";
import { enforceRateLimit } from "./enforce-rate-limit";
import { MAGIC_LINK_RATE_LIMITS } from "./magic-link-rate-limits";
import { inboxOf } from "./normalize-email";
import { AUTH_BASE_PATH, EMAIL_PROVIDER_ID } from "./sign-in-link";

/**
 * "Send me a sign-in link". Checks the callback target and the rate limits (per email and
 * per client address) first, then lets Auth.js create the token and send the email, so the
 * link is exactly the one its callback verifies. Known and unknown emails get the same
 * outcome: signing in with a new email creates the account.
 *
 * `normalizedEmail` must already be validated (see `EmailAddress`).
 */
export async function requestMagicLink(options: {
  runtime: Runtime;
  normalizedEmail: string;
  callbackUrl?: string | null;
  clientAddress: string;
  nowMs?: number;
}): Promise<void> {
  const { runtime, normalizedEmail } = options;
  const { config } = runtime;
  let callbackPath = DEFAULT_AFTER_SIGN_IN_PATH;
  if (options.callbackUrl) {
    const safe = toSafeCallbackPath(options.callbackUrl, new URL(config.appUrl).origin);
    if (!safe) {
      throw new AppError("bad_request", "callbackUrl must be a path on this site, such as /dashboard.");
    }
    callbackPath = safe;
  }

  const table = tableOf(runtime);
  // Count both before refusing, so a flood from one address also spends that address's budget.
  const outcomes = await Promise.allSettled([
    enforceRateLimit({
      table,
      rule: MAGIC_LINK_RATE_LIMITS.perEmail,
      // Per inbox: `victim+1@`, `victim+2@`… all land in one mailbox and share its budget.
      subject: inboxOf(normalizedEmail),
      nowMs: options.nowMs,
    }),
    enforceRateLimit({
      table,
      rule: MAGIC_LINK_RATE_LIMITS.perClientAddress,
      subject: options.clientAddress,
      nowMs: options.nowMs,
    }),
  ]);
  const refusals = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [outcome.reason] : []));
  if (refusals.length > 0) {
    const rateLimited = refusals.filter((reason): reason is AppError => reason instanceof AppError);
    // When both limits refuse, answer with the later of the two retry times.
    rateLimited.sort((a, b) => (b.retryAfterSeconds ?? 0) - (a.retryAfterSeconds ?? 0));
    throw rateLimited[0] ?? refusals[0];
  }

  // Links are built from the request URL Auth.js sees, so it is our configured public origin.
  const signInRequest = new Request(`${config.appUrl}${AUTH_BASE_PATH}/signin/${EMAIL_PROVIDER_ID}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: normalizedEmail, callbackUrl: callbackPath }),
  });
  const { nowMs } = options;
  const authConfig = createAuthConfig({ runtime, nowMs: nowMs === undefined ? undefined : () => nowMs });
  let result: Response | ResponseInternal;
  try {
    result = await Auth(signInRequest, { ...authConfig, raw, skipCSRFCheck });
  } catch (error) {
    // Auth.js has logged it (adapter or mail failure); the caller gets a retryable answer.
    throw new AppError("unavailable", "We could not send the sign-in email. Please try again in a moment.", {
      cause: error,
    });
  }
  // With `raw`, success is an internal response redirecting to the "check your inbox" page;
  // a Response means Auth.js handled an error itself (already logged).
  if (result instanceof Response || (result.redirect ?? "").includes("error=")) {
    throw new AppError("unavailable", "We could not send the sign-in email. Please try again in a moment.");
  }
}
